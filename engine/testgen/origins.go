package testgen

import "github.com/setbot/setbot/model"

// RowOrigins names where every row of m's black-box tables comes from, in
// order, as a test's Rows name it after the function's name
// ("f:table.csv:4:1", or "f:computed by COMMAND" for a row a command
// computed). The tests of two equal machines name the same rows alike
// exactly when their RowOrigins are equal.
func RowOrigins(m *model.Model) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, f := range m.Functions {
		for _, row := range f.Rows {
			out = append(out, f.Name+":"+rowOrigin(m, f, row))
		}
	}
	return out
}

// rowOrigin says where a row of f's table comes from.
func rowOrigin(m *model.Model, f *model.Function, row *model.Row) string {
	if row.Grown {
		return "computed by " + f.Command
	}
	return m.Position(row.Pos).String()
}
