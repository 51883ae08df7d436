package semantic

import (
	"strings"
	"unicode"

	"github.com/discover-db/discover/naming"
)

// entityType is the entity name for a table: its words with the last one
// singular, in PascalCase (order_items → OrderItem). Warehouse prefixes such
// as tbl_ or dim_ are dropped when words remain.
func entityType(table string) string {
	words := naming.Words(table)
	for len(words) > 1 && naming.TablePrefix(words[0]) {
		words = words[1:]
	}
	for len(words) > 1 && naming.TableSuffix(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return table
	}
	words[len(words)-1] = naming.Singular(words[len(words)-1])
	var b strings.Builder
	for _, w := range words {
		b.WriteString(title(w))
	}
	return b.String()
}

func title(w string) string {
	rs := []rune(w)
	if len(rs) == 0 {
		return w
	}
	rs[0] = unicode.ToUpper(rs[0])
	return string(rs)
}

// humanize renders an entity type for prose: OrderItem → "order item".
func humanize(typ string) string {
	return strings.Join(naming.Words(typ), " ")
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
