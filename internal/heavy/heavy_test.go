package heavy

import (
	"flag"
	"runtime/debug"
	"testing"
)

// The build tag and the toolchain agree on whether -race is on: a file
// with the wrong constraint would pass every other check here.
func TestRaceMatchesBuild(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("the binary carries no build information")
	}
	built := false
	for _, s := range info.Settings {
		if s.Key == "-race" {
			built = s.Value == "true"
		}
	}
	if Race != built {
		t.Errorf("Race = %v, but the binary was built with -race=%v", Race, built)
	}
}

func TestReduced(t *testing.T) {
	if Short() != testing.Short() {
		t.Errorf("Short() = %v, testing.Short() = %v", Short(), testing.Short())
	}
	short := flag.Lookup("test.short")
	defer short.Value.Set(short.Value.String())
	for _, s := range []string{"true", "false"} {
		if err := short.Value.Set(s); err != nil {
			t.Fatal(err)
		}
		if want := s == "true" || Race; Reduced() != want {
			t.Errorf("-short=%s, race %v: Reduced() = %v, want %v", s, Race, Reduced(), want)
		}
	}
}

func TestLongOnlyWithOne(t *testing.T) {
	for env, want := range map[string]bool{"1": true, "": false, "0": false, "yes": false, "true": false} {
		t.Setenv(LongEnv, env)
		if Long() != want {
			t.Errorf("%s=%q: Long() = %v, want %v", LongEnv, env, Long(), want)
		}
	}
}
