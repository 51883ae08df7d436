package semantic

import (
	"strings"
	"testing"
)

// The issue's list of domains, each in the lexicon.
func TestLexiconCoversIssueDomains(t *testing.T) {
	for _, d := range []string{"ecommerce", "retail", "logistics", "healthcare", "finance", "insurance", "legal",
		"education", "hr", "saas", "telecom", "manufacturing", "real_estate", "travel", "media", "government",
		"research", "gaming"} {
		if len(lexicon[d]) < 15 {
			t.Errorf("domain %s: %d words, want at least 15", d, len(lexicon[d]))
		}
	}
	if len(lexicon) < 18 {
		t.Errorf("%d domains, want at least 18", len(lexicon))
	}
}

func TestScoreVocabulary(t *testing.T) {
	cases := []struct {
		name                    string
		tables, columns, values []string
		want                    string
	}{
		{"telecom", []string{"subscribers", "plans", "usage_records"}, []string{"msisdn", "tariff_type", "roaming_country"},
			[]string{"voice", "sms", "data"}, "telecom"},
		{"saas", []string{"workspaces", "subscriptions", "seats", "invoices"}, []string{"plan_id", "trial_ends_at", "mrr"}, nil, "saas"},
		{"insurance", []string{"policies", "claims", "policyholders"}, []string{"premium", "deductible"}, nil, "insurance"},
		{"legal", []string{"matters", "attorneys", "court_filings"}, []string{"docket_number", "billable_hours"}, nil, "legal"},
		{"retail", []string{"stores", "pos_transactions", "receipts"}, []string{"cashier_id", "loyalty_card"}, nil, "retail"},
		{"media", []string{"articles", "authors", "pageviews"}, []string{"headline", "publisher"}, nil, "media"},
		{"research", []string{"experiments", "samples", "assays"}, []string{"cohort", "protocol_id"}, nil, "research"},
		{"gaming", []string{"players", "guilds", "quests", "achievements"}, []string{"xp", "level"}, nil, "gaming"},
	}
	for _, c := range cases {
		g := scoreVocabulary(c.tables, c.columns, c.values)
		if g.Label != c.want {
			t.Errorf("%s: got %s (%q)", c.name, g.Label, g.Evidence)
			continue
		}
		ev := strings.Join(g.Evidence, "; ")
		if !strings.Contains(ev, "runner-up: ") {
			t.Errorf("%s: evidence names no runner-up: %q", c.name, g.Evidence)
		}
	}
	// Values count, but less than names: a code list's words tip a close
	// call and are named in the evidence.
	g := scoreVocabulary([]string{"subscribers", "plans"}, []string{"usage"}, []string{"prepaid", "postpaid", "roaming"})
	if g.Label != "telecom" || !strings.Contains(strings.Join(g.Evidence, "; "), "values: postpaid, prepaid, roaming") {
		t.Errorf("values: %s %q", g.Label, g.Evidence)
	}
}
