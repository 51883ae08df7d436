package star

import ("testing"; "strings"; "regexp")

func TestTmpShow(t *testing.T) {
	for _, tb := range Tables(0.002) {
		if tb.Name == "shop_sale" || tb.Name == "net_sale" {
			for _, l := range strings.Split(tb.fill, "\n") {
				if strings.Contains(l, "% 49 = 0") || strings.Contains(l, "% 47 = 0") { t.Log(regexp.MustCompile(`\s+`).ReplaceAllString(l, " ")) }
			}
		}
	}
}
