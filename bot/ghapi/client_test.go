package ghapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

var repo = Repo{Owner: "octo", Name: "models"}

func TestRepoString(t *testing.T) {
	if got := repo.String(); got != "octo/models" {
		t.Errorf("String() = %q, want octo/models", got)
	}
}

// TestRequests checks the request each method sends and what it makes of the answer.
func TestRequests(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		route  string
		status int
		resp   string
		call   func(c Client) (any, error)
		want   any
		body   map[string]any // expected JSON body; nil: no body
	}{
		{
			name:   "PullRequest",
			route:  "GET /api/v3/repos/octo/models/pulls/12",
			status: 200,
			resp: `{"number":12,"state":"open","draft":true,"html_url":"https://github.com/octo/models/pull/12",
				"base":{"ref":"main","sha":"b0"},"head":{"ref":"feature","sha":"h1","repo":{"full_name":"mallory/models"}}}`,
			call: func(c Client) (any, error) { return c.PullRequest(ctx, repo, 12) },
			want: &PullRequest{Number: 12, BaseRef: "main", BaseSHA: "b0", HeadRef: "feature", HeadSHA: "h1", HeadRepo: "mallory/models",
				Draft: true, State: "open", HTMLURL: "https://github.com/octo/models/pull/12"},
		},
		{
			name:   "CreateComment",
			route:  "POST /api/v3/repos/octo/models/issues/12/comments",
			status: 201,
			resp:   `{"id":501,"body":"hello <!-- setbot -->"}`,
			call:   func(c Client) (any, error) { return c.CreateComment(ctx, repo, 12, "hello <!-- setbot -->") },
			want:   int64(501),
			body:   map[string]any{"body": "hello <!-- setbot -->"},
		},
		{
			name:   "SetStatus",
			route:  "POST /api/v3/repos/octo/models/statuses/1a2b3c4d5e",
			status: 201,
			resp:   `{"id":9,"state":"failure"}`,
			call: func(c Client) (any, error) {
				return nil, c.SetStatus(ctx, repo, "1a2b3c4d5e", Status{State: "failure", Context: "setbot",
					Description: strings.Repeat("x", 150), TargetURL: "https://setbot.example/r"})
			},
			body: map[string]any{"state": "failure", "context": "setbot", "description": strings.Repeat("x", 139) + "…", "target_url": "https://setbot.example/r"},
		},
		{
			name:   "EditComment",
			route:  "PATCH /api/v3/repos/octo/models/issues/comments/501",
			status: 200,
			resp:   `{"id":501}`,
			call:   func(c Client) (any, error) { return nil, c.EditComment(ctx, repo, 501, "new & <b>") },
			body:   map[string]any{"body": "new & <b>"},
		},
		{
			name:   "CreateCheckRun",
			route:  "POST /api/v3/repos/octo/models/check-runs",
			status: 201,
			resp:   `{"id":77}`,
			call: func(c Client) (any, error) {
				return c.CreateCheckRun(ctx, repo, CheckRun{
					HeadSHA: "1a2b3c4d5e", Status: "completed", Conclusion: "failure",
					DetailsURL: "https://setbot.example/runs/1",
					Title:      "1 blocking finding", Summary: "sum", Text: "details",
					Annotations: []Annotation{{Path: "m.sc", StartLine: 3, EndLine: 4, Level: "failure", Title: "unreachable", Message: "state S"}},
				})
			},
			want: int64(77),
			body: map[string]any{
				"name": "setbot", "head_sha": "1a2b3c4d5e", "status": "completed", "conclusion": "failure",
				"details_url": "https://setbot.example/runs/1",
				"output": map[string]any{
					"title": "1 blocking finding", "summary": "sum", "text": "details",
					"annotations": []any{map[string]any{
						"path": "m.sc", "start_line": 3.0, "end_line": 4.0, "annotation_level": "failure",
						"title": "unreachable", "message": "state S",
					}},
				},
			},
		},
		{
			name:   "CreateCheckRun queued",
			route:  "POST /api/v3/repos/octo/models/check-runs",
			status: 201,
			resp:   `{"id":78}`,
			call: func(c Client) (any, error) {
				return c.CreateCheckRun(ctx, repo, CheckRun{Name: "setbot-full", HeadSHA: "1a2b3c4", Status: "queued"})
			},
			want: int64(78),
			body: map[string]any{"name": "setbot-full", "head_sha": "1a2b3c4", "status": "queued"},
		},
		{
			name:   "UpdateCheckRun",
			route:  "PATCH /api/v3/repos/octo/models/check-runs/77",
			status: 200,
			resp:   `{"id":77}`,
			call: func(c Client) (any, error) {
				return nil, c.UpdateCheckRun(ctx, repo, 77, CheckRun{Status: "completed", Conclusion: "success", Title: "ok", Summary: "nothing found"})
			},
			body: map[string]any{
				"name": "setbot", "status": "completed", "conclusion": "success",
				"output": map[string]any{"title": "ok", "summary": "nothing found"},
			},
		},
		{
			name:   "AddReaction",
			route:  "POST /api/v3/repos/octo/models/issues/comments/501/reactions",
			status: 201,
			resp:   `{"id":1,"content":"eyes"}`,
			call:   func(c Client) (any, error) { return nil, c.AddReaction(ctx, repo, 501, "eyes") },
			body:   map[string]any{"content": "eyes"},
		},
		{
			name:   "Permission role",
			route:  "GET /api/v3/repos/octo/models/collaborators/alice/permission",
			status: 200,
			resp:   `{"permission":"write","role_name":"maintain","user":{"login":"alice"}}`,
			call:   func(c Client) (any, error) { return c.Permission(ctx, repo, "alice") },
			want:   "maintain",
		},
		{
			name:   "Permission custom role",
			route:  "GET /api/v3/repos/octo/models/collaborators/bob/permission",
			status: 200,
			resp:   `{"permission":"read","role_name":"auditor"}`,
			call:   func(c Client) (any, error) { return c.Permission(ctx, repo, "bob") },
			want:   "read",
		},
		{
			name:   "Permission none",
			route:  "GET /api/v3/repos/octo/models/collaborators/eve/permission",
			status: 200,
			resp:   `{"permission":"none","role_name":""}`,
			call:   func(c Client) (any, error) { return c.Permission(ctx, repo, "eve") },
			want:   "none",
		},
		{
			name:   "DefaultBranch",
			route:  "GET /api/v3/repos/octo/models",
			status: 200,
			resp:   `{"full_name":"octo/models","default_branch":"trunk"}`,
			call:   func(c Client) (any, error) { return c.DefaultBranch(ctx, repo) },
			want:   "trunk",
		},
		{
			name:   "BranchHead",
			route:  "GET /api/v3/repos/octo/models/git/ref/heads/release/1.0",
			status: 200,
			resp:   `{"ref":"refs/heads/release/1.0","object":{"type":"commit","sha":"c0ffee"}}`,
			call:   func(c Client) (any, error) { return c.BranchHead(ctx, repo, "release/1.0") },
			want:   "c0ffee",
		},
		{
			name:   "OpenPullRequests",
			route:  "GET /api/v3/repos/octo/models/pulls",
			status: 200,
			resp:   `[{"number":12,"state":"open","base":{"ref":"main","sha":"b0"},"head":{"ref":"f","sha":"h1"}}]`,
			call:   func(c Client) (any, error) { return c.OpenPullRequests(ctx, repo) },
			want:   []PullRequest{{Number: 12, BaseRef: "main", BaseSHA: "b0", HeadRef: "f", HeadSHA: "h1", State: "open"}},
		},
		{
			name:   "InProgressCheckRuns",
			route:  "GET /api/v3/repos/octo/models/commits/h1/check-runs",
			status: 200,
			resp:   `{"total_count":2,"check_runs":[{"id":5,"name":"setbot","status":"in_progress"},{"id":6,"name":"setbot","status":"completed"}]}`,
			call:   func(c Client) (any, error) { return c.InProgressCheckRuns(ctx, repo, "h1", "setbot") },
			want:   []int64{5},
		},
		{
			name:  "Repositories with a token",
			route: "",
			call:  func(c Client) (any, error) { return c.Repositories(ctx) },
			want:  []Repository(nil),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.handle(tt.route, answer(tt.status, tt.resp))
			c, _ := newTestClient(t, f)
			got, err := tt.call(c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			reqs := f.requests()
			if tt.route == "" {
				if len(reqs) != 0 {
					t.Errorf("requests %+v, want none", reqs)
				}
				return
			}
			if len(reqs) != 1 {
				t.Fatalf("got %d requests, want 1: %+v", len(reqs), reqs)
			}
			r := reqs[0]
			if route := r.Method + " " + r.Path; route != tt.route {
				t.Errorf("request %s, want %s", route, tt.route)
			}
			if r.Auth != "Bearer "+testToken {
				t.Errorf("Authorization %q, want Bearer <token>", r.Auth)
			}
			if r.UserAgent != userAgent {
				t.Errorf("User-Agent %q, want %q", r.UserAgent, userAgent)
			}
			if !reflect.DeepEqual(r.Body, tt.body) {
				t.Errorf("body\n got %v\nwant %v", r.Body, tt.body)
			}
		})
	}
}

func TestGitTokenWithPlainToken(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f)
	got, err := c.GitToken(context.Background())
	if err != nil || got != testToken {
		t.Errorf("GitToken() = %q, %v; want the token", got, err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("GitToken sent %d requests, want none", n)
	}
}

func TestFindComment(t *testing.T) {
	const route = "GET /api/v3/repos/octo/models/issues/12/comments"
	const marker = "<!-- setbot:report -->"
	// Three pages. Only a comment that starts with the marker and was
	// written by the token's user (setbot) is setbot's: on page 2, comment
	// 4 quotes the marker, comment 5 is a user pasting it, comment 6 is it.
	pages := map[string]string{
		"1": `[{"id":1,"body":"first","user":{"login":"dana"}},{"id":2,"body":"setbot is great","user":{"login":"setbot"}}]`,
		"2": `[{"id":3,"body":"lgtm","user":{"login":"dana"}},{"id":4,"body":"## Report\n` + marker + `\nold","user":{"login":"setbot"}},` +
			`{"id":5,"body":"` + marker + ` mine now","user":{"login":"mallory"}},{"id":6,"body":"` + marker + `\nold","user":{"login":"SetBot"}}]`,
		"3": `[{"id":7,"body":"` + marker + `","user":{"login":"setbot"}}]`,
	}
	paged := func(w http.ResponseWriter, r *http.Request, _ int) {
		page := r.URL.Query().Get("page")
		if next := map[string]string{"1": "2", "2": "3"}[page]; next != "" {
			w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?per_page=100&page=%s>; rel="next"`, r.Host, r.URL.Path, next))
		}
		reply(w, 200, pages[page])
	}

	t.Run("found on page 2", func(t *testing.T) {
		f := newFake(t)
		f.handle(route, paged)
		f.handle("GET /api/v3/user", answer(200, `{"login":"setbot"}`))
		c, _ := newTestClient(t, f)
		id, body, err := c.FindComment(context.Background(), repo, 12, marker)
		if err != nil {
			t.Fatal(err)
		}
		if id != 6 || body != marker+"\nold" {
			t.Errorf("FindComment = %d, %q; want comment 6", id, body)
		}
		var queries []string
		for _, r := range f.requests() {
			if r.Path != "/api/v3/user" {
				queries = append(queries, r.RawQuery)
			}
		}
		if want := []string{"page=1&per_page=100", "page=2&per_page=100"}; !reflect.DeepEqual(queries, want) {
			t.Errorf("queries %q, want %q", queries, want)
		}
	})

	t.Run("not found", func(t *testing.T) {
		f := newFake(t)
		f.handle(route, paged)
		c, _ := newTestClient(t, f)
		id, body, err := c.FindComment(context.Background(), repo, 12, "<!-- other -->")
		if err != nil || id != 0 || body != "" {
			t.Errorf("FindComment = %d, %q, %v; want 0, \"\", nil", id, body, err)
		}
		if n := len(f.requests()); n != 3 {
			t.Errorf("%d requests, want all 3 pages", n)
		}
	})

	t.Run("empty marker", func(t *testing.T) {
		f := newFake(t)
		c, _ := newTestClient(t, f)
		if _, _, err := c.FindComment(context.Background(), repo, 12, ""); err == nil {
			t.Error("FindComment with an empty marker succeeded")
		}
	})
}

func TestCheckRunAnnotationBatches(t *testing.T) {
	anns := make([]Annotation, 120)
	for i := range anns {
		anns[i] = Annotation{Path: "m.sc", StartLine: i + 1, EndLine: i + 1, Level: "warning", Message: fmt.Sprint("finding ", i+1)}
	}
	run := CheckRun{HeadSHA: "1a2b3c4", Status: "completed", Conclusion: "neutral", Title: "120 warnings", Summary: "summary", Text: "text", Annotations: anns}

	// check asserts the requests: which route, which status, which annotations (by start line).
	check := func(t *testing.T, reqs []request, wantRoutes []string, wantStatus []any) {
		t.Helper()
		if len(reqs) != len(wantRoutes) {
			t.Fatalf("%d requests, want %d", len(reqs), len(wantRoutes))
		}
		next := 1
		for i, r := range reqs {
			if route := r.Method + " " + r.Path; route != wantRoutes[i] {
				t.Errorf("request %d: %s, want %s", i, route, wantRoutes[i])
			}
			if got := jsonField(r.Body, "status"); got != wantStatus[i] {
				t.Errorf("request %d: status %v, want %v", i, got, wantStatus[i])
			}
			for _, k := range []string{"title", "summary", "text"} {
				if got, want := jsonField(r.Body, "output", k), jsonField(reqs[0].Body, "output", k); got != want {
					t.Errorf("request %d: output.%s %v, want %v as in the first", i, k, got, want)
				}
			}
			got, _ := jsonField(r.Body, "output", "annotations").([]any)
			if want := min(50, 120-next+1); len(got) != want {
				t.Errorf("request %d: %d annotations, want %d", i, len(got), want)
			}
			for _, a := range got {
				if line := jsonField(a.(map[string]any), "start_line"); line != float64(next) {
					t.Errorf("request %d: annotation at line %v, want %d", i, line, next)
				}
				next++
			}
		}
		if next != 121 {
			t.Errorf("sent annotations up to %d, want 120", next-1)
		}
	}

	t.Run("create", func(t *testing.T) {
		f := newFake(t)
		f.handle("POST /api/v3/repos/octo/models/check-runs", answer(201, `{"id":9}`))
		f.handle("PATCH /api/v3/repos/octo/models/check-runs/9", answer(200, `{"id":9}`))
		c, _ := newTestClient(t, f)
		id, err := c.CreateCheckRun(context.Background(), repo, run)
		if err != nil || id != 9 {
			t.Fatalf("CreateCheckRun = %d, %v", id, err)
		}
		check(t, f.requests(),
			[]string{"POST /api/v3/repos/octo/models/check-runs", "PATCH /api/v3/repos/octo/models/check-runs/9", "PATCH /api/v3/repos/octo/models/check-runs/9"},
			[]any{"completed", nil, nil})
	})

	t.Run("update", func(t *testing.T) {
		f := newFake(t)
		f.handle("PATCH /api/v3/repos/octo/models/check-runs/9", answer(200, `{"id":9}`))
		c, _ := newTestClient(t, f)
		if err := c.UpdateCheckRun(context.Background(), repo, 9, run); err != nil {
			t.Fatal(err)
		}
		route := "PATCH /api/v3/repos/octo/models/check-runs/9"
		check(t, f.requests(), []string{route, route, route}, []any{"completed", nil, nil})
	})

	t.Run("later batch fails", func(t *testing.T) {
		f := newFake(t)
		f.handle("POST /api/v3/repos/octo/models/check-runs", answer(201, `{"id":9}`))
		f.handle("PATCH /api/v3/repos/octo/models/check-runs/9", answer(422, `{"message":"Validation Failed"}`))
		c, _ := newTestClient(t, f)
		id, err := c.CreateCheckRun(context.Background(), repo, run)
		if id != 9 || err == nil || !strings.Contains(err.Error(), "adding annotations 51-100 to check run 9 on octo/models") {
			t.Errorf("CreateCheckRun = %d, %v; want the id and an error about annotations 51-100", id, err)
		}
	})
}

func TestRateRemaining(t *testing.T) {
	f := newFake(t)
	f.handle("GET /api/v3/repos/octo/models", func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			w.Header().Set("X-RateLimit-Limit", "5000")
			w.Header().Set("X-RateLimit-Remaining", "4321")
			w.Header().Set("X-RateLimit-Resource", "core")
		}
		reply(w, 200, `{"default_branch":"main"}`)
	})
	c, _ := newTestClient(t, f)
	if got := c.RateRemaining(); got != -1 {
		t.Errorf("before any response: RateRemaining() = %d, want -1", got)
	}
	for range 2 {
		if _, err := c.DefaultBranch(context.Background(), repo); err != nil {
			t.Fatal(err)
		}
		// The second response has no rate headers and must not reset the count.
		if got := c.RateRemaining(); got != 4321 {
			t.Errorf("RateRemaining() = %d, want 4321", got)
		}
	}
}

// TestInProgressCheckRunsQuery: the list asks GitHub for every run of the name in progress,
// not only the latest of each suite.
func TestInProgressCheckRunsQuery(t *testing.T) {
	f := newFake(t)
	f.handle("GET /api/v3/repos/octo/models/commits/h1/check-runs", answer(200, `{"total_count":0,"check_runs":[]}`))
	c, _ := newTestClient(t, f)
	if _, err := c.InProgressCheckRuns(context.Background(), repo, "h1", "setbot"); err != nil {
		t.Fatal(err)
	}
	q, err := url.ParseQuery(f.requests()[0].RawQuery)
	if err != nil || q.Get("check_name") != "setbot" || q.Get("status") != "in_progress" || q.Get("filter") != "all" {
		t.Errorf("query %q, %v", f.requests()[0].RawQuery, err)
	}
}
