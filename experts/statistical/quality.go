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
// empty table, null-heavy columns and constant columns.
func qualityInsights(table string, rows int64, sampled bool, profiles []catalog.ProfileDoc) []insight {
	of := fmt.Sprintf("%d rows", rows)
	if sampled {
		of = fmt.Sprintf("a sample of %d rows", rows)
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
		if p.NullFraction != nil && *p.NullFraction >= nullHeavyFraction {
			nulls := int64(*p.NullFraction*float64(rows) + 0.5)
			desc := fmt.Sprintf("%s is NULL in %s%% of %s", col, pct(*p.NullFraction), of)
			if *p.NullFraction == 1 {
				desc = fmt.Sprintf("%s is NULL in every one of %s", col, of)
			}
			out = append(out, insight{
				key: "quality:null_heavy:" + col,
				doc: catalog.InsightDoc{Kind: "quality", Tables: []string{table}, Columns: []string{col},
					Description: desc},
				evidence: []string{fmt.Sprintf("COUNT(*)=%d, NULLs=%d in %s", rows, nulls, col)},
			})
		}
		if p.DistinctCount != nil && *p.DistinctCount == 1 {
			v := ""
			if p.Min != nil {
				v = " (" + strconv.Quote(*p.Min) + ")"
			}
			out = append(out, insight{
				key: "quality:constant:" + col,
				doc: catalog.InsightDoc{Kind: "quality", Tables: []string{table}, Columns: []string{col},
					Description: fmt.Sprintf("%s holds a single value%s in %s", col, v, of)},
				evidence: []string{fmt.Sprintf("COUNT(DISTINCT %s)=1 over %d rows", p.Column, rows)},
			})
		}
	}
	return out
}

// pct renders a fraction as a percentage with one decimal.
func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }

// fmtFloat renders a figure for evidence strings: short, without exponent
// for everyday magnitudes.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 10, 64) }
