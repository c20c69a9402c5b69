package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/blackbox"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/report"
)

// Growing the head's tables (issue 17): where the configuration allows
// it, the commands of the head model's black-box functions compute the
// rows its tables lack (engine.GrowTables, the SolveTab algorithm of
// Boudhiba et al., TAP 2017) before the change is analysed, so that what
// the tree reaches is what the functions allow and not only what the rows
// written down so far do. The commands run in a checkout of the head
// commit (the bot's clones are bare), made once per run and removed at its
// end, with none of setbot's environment, and as another user when setbot
// runs as root (blackbox.Confined and blackbox.Prepare).

// commandsAllowed says whether a run may run commands: the user asked
// for it on the command line, or both the head's configuration and the
// gate's (the base's) allow it, so that a pull request cannot allow
// itself to run code.
func commandsAllowed(opts Options, head, gate *config.Config) bool {
	return opts.RunCommands || head.Functions.RunCommands && gate.Functions.RunCommands
}

// commandLimits are the rounds and the time limit the commands get: the
// smaller of the head's and the gate's, so that a pull request cannot
// give its own commands more time than its base allows.
func commandLimits(head, gate *config.Config) config.Functions {
	return config.Functions{
		RunCommands: head.Functions.RunCommands && gate.Functions.RunCommands,
		GrowRounds:  min(head.Functions.GrowRounds, gate.Functions.GrowRounds),
		Timeout:     min(head.Functions.Timeout, gate.Functions.Timeout),
	}
}

// refusal is why the run's commands may not run, "" if they may
// (Options.RefuseCommands, asked once).
func (r *runner) refusal() string {
	if r.refused == nil {
		why := ""
		if r.opts.RefuseCommands != nil {
			why = r.opts.RefuseCommands(r.ctx)
		}
		r.refused = &why
	}
	return *r.refused
}

// hasCommands reports whether m reads a black-box function through a table
// that a command can grow.
func hasCommands(m *mlm.Machine) bool {
	return m.Source != nil && slices.ContainsFunc(m.Source.Functions, func(f *model.Function) bool {
		return f.Command != "" && f.Summarised()
	})
}

// checkout returns the directory holding the head commit's files, written
// on first use.
func (r *runner) checkout() (string, error) {
	if r.checkoutDir != "" {
		return r.checkoutDir, nil
	}
	dir, err := os.MkdirTemp("", "setbot-head-")
	if err != nil {
		return "", fmt.Errorf("checking out %.12s to run black-box commands: %w", r.head, err)
	}
	if err := r.repo.WriteTree(r.head, dir); err != nil {
		return "", errors.Join(err, os.RemoveAll(dir))
	}
	if err := blackbox.Prepare(dir); err != nil {
		return "", errors.Join(err, os.RemoveAll(dir))
	}
	r.checkoutDir = dir
	return dir, nil
}

// removeCheckout removes the head's checkout, if one was made.
func (r *runner) removeCheckout() {
	if r.checkoutDir == "" {
		return
	}
	if err := os.RemoveAll(r.checkoutDir); err != nil {
		r.progress("removing the checkout of the head: %v", err)
	}
	r.checkoutDir = ""
}

// growTables grows the tables of head, the model at path, by running its
// functions' commands, and gives base the rows grown for the functions it
// declares alike, so that the comparison of the two shows what the change
// does and not what the growth does. Both machines' hashes then cover the
// rows. A command that fails stops the growth with the rows it has, and
// the report says why; only a cancelled run or a checkout that cannot be
// made is an error.
func (r *runner) growTables(path string, head, base *mlm.Machine, eopts engine.Options, fc config.Functions) (*report.TableGrowth, error) {
	dir, err := r.checkout()
	if err != nil {
		return nil, err
	}
	r.progress("%s: running the black-box functions' commands to grow their tables (at most %d rounds)", path, fc.GrowRounds)
	g := &report.TableGrowth{Rows: []report.GrownRow{}, Errors: []string{}}
	res, err := engine.GrowTables(head, eopts, r.opts.Solver, fc.GrowRounds, blackbox.Confined(r.ctx, dir, fc.Timeout))
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	var start *engine.StartError
	switch {
	case errors.As(err, &start):
		// The analysis reports a machine that does not finish starting.
	case err != nil:
		g.AddError("growing the tables: " + err.Error())
	default:
		g.Rounds = res.Attempts
	}
	for _, f := range head.Source.Functions {
		table := tablePath(path, f.Table)
		for _, row := range f.Rows {
			if row.Grown {
				g.Rows = append(g.Rows, grownRow(f, table, row))
			}
		}
	}
	if len(g.Rows) > 0 {
		head.Hash = mlm.Hash(head) // the rows are part of the machine
		if base != nil && shareRows(base, head, r.sameCommand) {
			base.Hash = mlm.Hash(base)
		}
	}
	r.progress("%s: rows computed: %d", path, len(g.Rows))
	return g, nil
}

// tablePath is a table's file in the repository: the table is named
// relative to the model.
func tablePath(modelPath, table string) string {
	return path.Join(path.Dir(modelPath), table)
}

func grownRow(f *model.Function, table string, row *model.Row) report.GrownRow {
	in := make([]string, len(row.In))
	for i, e := range row.In {
		in[i] = model.FormatValue(e)
	}
	return report.GrownRow{Function: f.Name, Table: table, In: in, Out: model.FormatValue(row.Out), CSV: blackbox.CSVLine(row)}
}

// sameCommand reports whether the command's file (a path relative to
// the repository root) has the same bytes at the base and at the head:
// rows a changed script computes are the change's, not the base's.
func (r *runner) sameCommand(command string) bool {
	b, err := r.repo.ReadFile(r.base, command)
	if err != nil {
		return false
	}
	h, err := r.repo.ReadFile(r.head, command)
	return err == nil && bytes.Equal(b, h)
}

// shareRows adds the rows grown for head's functions to base's functions
// of the same name, signature, table and command, whose file same says is
// unchanged, that lack a row for the same inputs, and reports whether it
// added any. (Only the command's own file is compared: a script that
// reads other files of the repository is trusted to change with them.)
func shareRows(base, head *mlm.Machine, same func(command string) bool) bool {
	added := false
	for _, f := range head.Source.Functions {
		bf := base.Source.Function(f.Name)
		if bf == nil || signature(bf) != signature(f) || bf.Table == "" || bf.Table != f.Table || bf.Command != f.Command || !same(f.Command) {
			continue
		}
		for _, row := range f.Rows {
			if row.Grown && !slices.ContainsFunc(bf.Rows, func(b *model.Row) bool { return sameInputs(b.In, row.In) }) {
				bf.Rows = append(bf.Rows, &model.Row{In: row.In, Out: row.Out, Grown: true})
				added = true
			}
		}
	}
	return added
}

func signature(f *model.Function) string {
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		params[i] = p.String()
	}
	return strings.Join(params, ",") + "->" + f.Result.String()
}

func sameInputs(a, b []ast.Expr) bool {
	return slices.EqualFunc(a, b, func(x, y ast.Expr) bool { return ast.Equal(x, y) })
}

// growthKey is what a result's key says of the growth: whether commands
// ran, with which settings, and the rows they computed (the head's tree
// key covers them too), so that a result computed without running the
// commands is never served to a run that runs them, nor the other way.
func growthKey(g *report.TableGrowth, fc config.Functions) string {
	if g == nil || g.Refused != "" {
		return "commands=no" // a refusal computes what no commands do
	}
	rows := make([]string, len(g.Rows))
	for i, row := range g.Rows {
		rows[i] = row.Table + ":" + row.Function + ":" + row.CSV
	}
	slices.Sort(rows)
	return fmt.Sprintf("commands=ran rounds=%d timeout=%v rows=%s", fc.GrowRounds, fc.Timeout, strings.Join(rows, "\x00"))
}
