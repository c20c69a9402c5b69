// Package blackbox runs the commands of black-box functions
// (setbot:function command=...), which compute new rows of their tables,
// and writes the rows an analysis computed back to the tables. It is I/O
// at the edge: the engine only calls the engine.Runner it is given.
package blackbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/clip"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// DefaultTimeout bounds one run of a command.
const DefaultTimeout = 10 * time.Second

// waitDelay is how long a command's output is waited for after it ended
// or was killed: a child it left running may hold its standard output.
const waitDelay = time.Second

// MaxOutput bounds a command's standard output: a row's value is one
// line, and a command that prints more is wrong (or hostile), so the run
// fails rather than holding it all in memory.
const MaxOutput = 64 << 10

// MaxStderr bounds what an error keeps of a command's standard error;
// the rest is dropped. The error reaches the report, a pull request
// comment.
const MaxStderr = 2 << 10

// Command returns a Runner that runs a function's command, a path relative
// to the repository root root, with the inputs as its arguments (no shell
// reads them), root as its working directory, setbot's environment and
// timeout as its limit, and reads the result from the first line of its
// standard output. The command runs in a session and process group of
// its own; when ctx is done, a running command is killed with its process
// group, and every run after fails at once.
func Command(ctx context.Context, root string, timeout time.Duration) engine.Runner {
	return runner(ctx, root, timeout, nil, false)
}

// Confined returns a Runner as Command does, for code that has no business
// with anything of setbot's (a pull request's commands): the command gets
// none of setbot's environment but PATH, and root as its HOME and TMPDIR
// (the only directory it may write); before the
// first command runs, setbot makes itself non-dumpable (Protect), so that
// the command cannot read setbot's memory or the environment it started
// with through /proc; when setbot runs as root, the command runs as
// CommandUser, with no supplementary groups; and where the kernel has
// Landlock, the command reads and writes root and reads the system's
// programs and nothing else (landlock_linux.go). root must be a directory
// made for the commands and given to them with Prepare.
func Confined(ctx context.Context, root string, timeout time.Duration) engine.Runner {
	return runner(ctx, root, timeout, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "TMPDIR=" + root}, true)
}

// protect is Protect, done once for every confined command.
var protect = sync.OnceValue(Protect)

// runner is Command with the environment env (nil: setbot's), confined
// when confined is set.
func runner(parent context.Context, root string, timeout time.Duration, env []string, confined bool) engine.Runner {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	cred := commandUser()
	if !confined {
		cred = nil
	}
	return func(f *model.Function, in []ast.Expr) (ast.Expr, error) {
		path, err := resolve(root, f.Command)
		if err != nil {
			return nil, err
		}
		if confined {
			if err := protect(); err != nil {
				return nil, fmt.Errorf("making setbot's /proc entries unreadable before running %s: %w", f.Command, err)
			}
		}
		args := make([]string, len(in))
		for i, e := range in {
			args[i] = model.FormatValue(e)
		}
		call := strings.Join(append([]string{f.Command}, args...), " ")
		if err := parent.Err(); err != nil {
			return nil, fmt.Errorf("running %s: %w", call, err)
		}
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Dir, cmd.Env, cmd.WaitDelay = root, env, waitDelay
		killGroup(cmd)
		runAs(cmd, cred)
		stdout := &capped{max: MaxOutput, fail: true}
		stderr := &capped{max: MaxStderr}
		cmd.Stdout, cmd.Stderr = stdout, stderr
		start := cmd.Start
		if confined {
			start = func() error { return startConfined(cmd, root) }
		}
		if err = start(); err == nil {
			err = wait(cmd)
		}
		switch {
		case parent.Err() != nil:
			return nil, fmt.Errorf("running %s: %w", call, parent.Err())
		case ctx.Err() != nil:
			return nil, fmt.Errorf("running %s: no answer within %v", call, timeout)
		case stdout.over:
			return nil, fmt.Errorf("running %s: more than %d bytes of output; a row's value is one line", call, MaxOutput)
		case err != nil:
			return nil, fmt.Errorf("running %s: %w: %s", call, err, stderr.text())
		}
		line, _, _ := strings.Cut(stdout.buf.String(), "\n")
		v, err := model.ParseValue(strings.TrimSpace(line), f.Result)
		if err != nil {
			return nil, fmt.Errorf("running %s: output %q: %w", call, clip.Cut(line, MaxStderr, "…"), err)
		}
		return v, nil
	}
}

// capped is an io.Writer that keeps the first max bytes written to it and
// drops the rest. With fail, a write beyond max fails, which stops the
// copying from the command's pipe; the command then dies of a broken pipe.
type capped struct {
	buf  bytes.Buffer
	max  int
	fail bool
	over bool
}

var errTooMuchOutput = errors.New("too much output")

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.over = true
		if c.fail {
			return 0, errTooMuchOutput
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

// text is what was kept, trimmed, with a note when some was dropped.
func (c *capped) text() string {
	s := strings.TrimSpace(strings.ToValidUTF8(c.buf.String(), "\uFFFD"))
	if c.over {
		s += " … (standard error cut at " + fmt.Sprint(c.max) + " bytes)"
	}
	return s
}

// resolve returns the command's path, refusing one outside root (through
// .. or a symbolic link).
func resolve(root, command string) (string, error) {
	if command == "" {
		return "", errors.New("the function has no command")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if realRoot, err := filepath.EvalSymlinks(absRoot); err == nil {
		absRoot = realRoot
	}
	p := filepath.Join(absRoot, filepath.FromSlash(command))
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	if rel, err := filepath.Rel(absRoot, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(command) {
		return "", fmt.Errorf("command %s is outside the repository %s: name an executable inside it", command, root)
	}
	return p, nil
}

// SaveRows appends the rows an analysis computed (model.Row.Grown) to
// their functions' tables, in the directory of the model that declares
// them, and reports how many it wrote.
func SaveRows(modelDir string, fs []*model.Function) (int, error) {
	n := 0
	for _, f := range fs {
		var b strings.Builder
		for _, r := range f.Rows {
			if !r.Grown {
				continue
			}
			b.WriteString(CSVLine(r) + "\n")
			n++
		}
		if b.Len() == 0 || f.Table == "" {
			continue
		}
		path := filepath.Join(modelDir, filepath.FromSlash(f.Table))
		old, err := os.ReadFile(path)
		if err != nil {
			return n, err
		}
		if len(old) > 0 && old[len(old)-1] != '\n' {
			old = append(old, '\n')
		}
		if err := os.WriteFile(path, append(old, b.String()...), 0o644); err != nil {
			return n, fmt.Errorf("writing the table of %s: %w", f.Name, err)
		}
	}
	return n, nil
}

// CSVLine is a row as a line of its table: the inputs, then the output.
func CSVLine(r *model.Row) string {
	var b strings.Builder
	for _, in := range r.In {
		b.WriteString(csvField(model.FormatValue(in)) + ",")
	}
	b.WriteString(csvField(model.FormatValue(r.Out)))
	return b.String()
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") || strings.TrimSpace(s) != s || strings.HasPrefix(s, "#") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
