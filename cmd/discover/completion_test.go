package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Shell completion comes from cobra: `discover completion SHELL` prints the
// script, and the script asks `discover __complete …` for candidates.

func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash":       "__start_discover",
		"zsh":        "#compdef discover",
		"fish":       "complete -c discover",
		"powershell": "Register-ArgumentCompleter",
	} {
		res := run(t, "completion", shell)
		if res.code != 0 || !strings.Contains(res.stdout, want) || res.stderr != "" {
			t.Errorf("completion %s: exit %d, lacks %q\nstderr %q", shell, res.code, want, res.stderr)
		}
	}
}

// candidates asks the completion protocol for the words completing args;
// the last line of its answer is the directive, not a word.
func candidates(t *testing.T, args ...string) []string {
	t.Helper()
	res := run(t, append([]string{"__complete"}, args...)...)
	if res.code != 0 {
		t.Fatalf("__complete %q: exit %d\n%s", args, res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	var words []string
	for _, l := range lines[:len(lines)-1] {
		words = append(words, strings.SplitN(l, "\t", 2)[0])
	}
	return words
}

func TestCompletionCandidates(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{""}, []string{"catalog", "diff", "version", "completion"}},
		{[]string{"catalog", ""}, []string{"search", "get", "kind"}},
		{[]string{"catalog", "kind", "rel"}, []string{"relationship"}},
		{[]string{"catalog", "get", "orders", "--kind", "ta"}, []string{"table", "table_stats"}},
		{[]string{"diff", "--fail-on", ""}, []string{"schema", "relationships", "stats", "none"}},
		{[]string{"--for"}, []string{"--format"}},
	}
	for _, c := range cases {
		got := candidates(t, c.args...)
		for _, w := range c.want {
			if !contains(got, w) {
				t.Errorf("completing %q: %v lacks %s", c.args, got, w)
			}
		}
	}
	if got := candidates(t, "catalog", "kind", "rel"); len(got) != 1 {
		t.Errorf("completing catalog kind rel: %v, want only relationship", got)
	}
}

// The bash script, sourced in a real bash, completes a real command line
// through the binary.
func TestCompletionInBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nDISCOVER_TEST_AS_CLI=1 exec " + shellQuote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "discover"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	// The script needs bash-completion's _get_comp_words_by_ref; without
	// the package, a shim does what it does for these simple lines.
	script := `if [ -r /usr/share/bash-completion/bash_completion ]; then
  source /usr/share/bash-completion/bash_completion
else
  _get_comp_words_by_ref() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
fi
source <(discover completion bash)
COMP_LINE="discover catalog k"; COMP_POINT=${#COMP_LINE}
COMP_WORDS=(discover catalog k); COMP_CWORD=2
__start_discover
echo "catalog: ${COMPREPLY[*]}"
COMP_LINE="discover diff --fail-on sc"; COMP_POINT=${#COMP_LINE}
COMP_WORDS=(discover diff --fail-on sc); COMP_CWORD=3
__start_discover
echo "fail-on: ${COMPREPLY[*]}"
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	for _, want := range []string{"catalog: kind\n", "fail-on: schema\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("bash completion lacks %q:\n%s", want, out)
		}
	}
}
