package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
)

// TestHostileModels: a pull request adding the models that crashed the
// server or took a gigabyte to read (a sum of 300,000 terms, a script of
// 20,000 statements, an expression of 0.8 MB) gets a completed check run
// whose report gives each model's positioned error, and the pull request
// analysed beside it gets its result.
func TestHostileModels(t *testing.T) {
	e := newEnv(t)
	e.start()
	head := e.commitFiles(c1, "hostile", map[string]string{
		"models/sum.scxml":    string(hostile.Sum(300000)),
		"models/script.scxml": string(hostile.Script(20000)),
		"models/expr.scxml":   string(hostile.Sum(200000)),
	})
	e.sendPR("pull_request.opened", 8, "d-hostile", head)
	e.send("pull_request.opened", "d-beside")
	e.idle()
	runs := e.gh.runsFor(head)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion == "failure" || runs[0].Conclusion == "timed_out" {
		t.Fatalf("check runs of the hostile models: %+v; want one, completed with the report", runs)
	}
	comments := e.gh.commentsOf(8)
	if len(comments) != 1 {
		t.Fatalf("pull request 8's comments: %+v; want its report", comments)
	}
	deep := fmt.Sprintf("line 5, column 33: expression nested more than %d deep", ast.MaxNesting)
	for _, want := range []string{
		"models/sum.scxml", "models/expr.scxml", deep,
		"models/script.scxml", fmt.Sprintf("more than %d statements in one script", ast.MaxStmts),
	} {
		if !strings.Contains(comments[0].Body, want) {
			t.Errorf("pull request 8's report lacks %q:\n%s", want, comments[0].Body)
		}
	}
	if n := strings.Count(comments[0].Body, deep); n < 2 {
		t.Errorf("the report gives the depth error %d times, want it for the sum and the expression:\n%s", n, comments[0].Body)
	}
	e.besideCompletes()
}
