package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ObjectLister = (*Source)(nil)

// Objects lists the database's stored functions and procedures with their
// parameters and result types, from information_schema's ROUTINES and
// PARAMETERS: one query each for the whole database, under the same rule
// as the structure beyond keys (a view the server lacks or refuses leaves
// that part empty). The server shows only the routines the user may run
// or created. An ENUM is no type of its own here: its labels are in the
// column's type (enum('a','b')), so there are no enums to list.
func (s *Source) Objects(ctx context.Context) (warehouse.Objects, error) {
	var out warehouse.Objects
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		out = warehouse.Objects{}
		in := &introspector{ss: ss, ctx: ctx}
		type key struct{ name, kind string }
		byKey := map[key]*warehouse.Routine{}
		var list []*warehouse.Routine
		if err := in.optional("routines", `
			SELECT ROUTINE_NAME, ROUTINE_TYPE, coalesce(DTD_IDENTIFIER, ''), coalesce(ROUTINE_BODY, ''), coalesce(ROUTINE_COMMENT, '')
			FROM information_schema.ROUTINES
			WHERE ROUTINE_SCHEMA = ? AND ROUTINE_TYPE IN ('FUNCTION', 'PROCEDURE')`,
			func(r *sql.Rows) error {
				var rt warehouse.Routine
				if err := r.Scan(&rt.Name.Name, &rt.Kind, &rt.Returns, &rt.Language, &rt.Comment); err != nil {
					return err
				}
				rt.Kind = strings.ToLower(rt.Kind)
				if rt.Kind == "procedure" {
					rt.Returns = ""
				}
				byKey[key{rt.Name.Name, rt.Kind}] = &rt
				list = append(list, &rt)
				return nil
			}); err != nil {
			return err
		}
		// A function's parameters are all IN and written without the mode,
		// as CREATE FUNCTION takes them; a procedure's with it.
		args := map[*warehouse.Routine][]string{}
		if err := in.optional("routine parameters", `
			SELECT SPECIFIC_NAME, ROUTINE_TYPE, coalesce(PARAMETER_MODE, ''), coalesce(PARAMETER_NAME, ''), coalesce(DTD_IDENTIFIER, '')
			FROM information_schema.PARAMETERS
			WHERE SPECIFIC_SCHEMA = ? AND ORDINAL_POSITION > 0
			ORDER BY SPECIFIC_NAME, ROUTINE_TYPE, ORDINAL_POSITION`,
			func(r *sql.Rows) error {
				var name, kind, mode, param, typ string
				if err := r.Scan(&name, &kind, &mode, &param, &typ); err != nil {
					return err
				}
				rt := byKey[key{name, strings.ToLower(kind)}]
				if rt == nil {
					return nil
				}
				arg := param + " " + typ
				if rt.Kind == "procedure" && mode != "" {
					arg = mode + " " + arg
				}
				args[rt] = append(args[rt], arg)
				return nil
			}); err != nil {
			return err
		}
		for _, rt := range list {
			rt.Arguments = strings.Join(args[rt], ", ")
			out.Routines = append(out.Routines, *rt)
		}
		return nil
	})
	if err != nil {
		return warehouse.Objects{}, fmt.Errorf("mysql: list routines: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(out.Routines, func(a, b warehouse.Routine) int {
		if c := compareNames(a.Name.Name, b.Name.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return out, nil
}
