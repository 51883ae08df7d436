package statistical

import (
	"fmt"
	"strconv"

	"github.com/discover-db/discover/catalog"
)

const (
	// qualityMinRows keeps quality findings off tiny tables, where a few
	// NULLs or a single repeated value are normal.
	qualityMinRows = 20
	// nullHeavyFraction is the null fraction from which a column is flagged.
	nullHeavyFraction = 0.5
)

// insight is a quality finding ready to be saved.
type insight struct {
	key      string
	doc      catalog.InsightDoc
	evidence []string
}

// qualityInsights derives quality findings from one table's profiles: an
// empty table and null-heavy columns.
func qualityInsights(table string, rows int64, sampled bool, profiles []catalog.ProfileDoc) []insight {
	of := catalog.Thousands(rows) + " rows"
	if sampled {
		of = "a sample of " + catalog.Thousands(rows) + " rows"
	}
	if rows == 0 {
		return []insight{{
			key: "quality:empty_table:" + table,
			doc: catalog.InsightDoc{Kind: "quality", Tables: []string{table}, Columns: []string{},
				Description: fmt.Sprintf("%s is empty", table)},
			evidence: []string{fmt.Sprintf("COUNT(*)=0 on %s", table)},
		}}
	}
	if rows < qualityMinRows {
		return nil
	}
	var out []insight
	for _, p := range profiles {
		col := table + "." + p.Column
		// A column NULL in every row is not said here either: its "all_null"
		// anomaly says so.
		if p.NullFraction != nil && *p.NullFraction >= nullHeavyFraction && *p.NullFraction < 1 {
			nulls := int64(*p.NullFraction*float64(rows) + 0.5)
			desc := fmt.Sprintf("%s is NULL in %s%% of %s", col, pct(*p.NullFraction), of)
			out = append(out, insight{
				key: "quality:null_heavy:" + col,
				doc: catalog.InsightDoc{Kind: "quality", Tables: []string{table}, Columns: []string{col},
					Description: desc},
				evidence: []string{fmt.Sprintf("COUNT(*)=%d, NULLs=%d in %s", rows, nulls, col)},
			})
		}
		// Nor a constant column: its profile's "constant" anomaly says it,
		// with the value and the non-null count; a second finding with the
		// row count read as a different figure for the same fact.
	}
	return out
}

// pct renders a fraction as a percentage with one decimal.
func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }

// fmtFloat renders a figure for evidence strings: short, without exponent
// for everyday magnitudes.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 10, 64) }
