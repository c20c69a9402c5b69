package bot

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeGitHub stands in for the GitHub REST API: it keeps pull requests,
// comments, check runs and reactions in memory and records every request.
type fakeGitHub struct {
	t   *testing.T
	srv *httptest.Server

	mu          sync.Mutex
	calls       []call
	prs         map[int]map[string]any // number -> pull request JSON
	comments    map[int][]*fakeComment // pull request -> comments
	nextID      int64
	checkRuns   map[int64]*fakeCheckRun
	reactions   map[int64][]string          // comment -> contents
	statuses    map[string][]map[string]any // sha -> statuses posted
	permissions map[string]string           // user -> role name
	defaultRef  string
	fail        map[string]int // "METHOD path-prefix" -> number of 502s still to answer
}

type call struct {
	Method, Path string
	Body         map[string]any
}

type fakeComment struct {
	ID   int64
	Body string
	User string
	Type string // "Bot" for an App's comments
}

type fakeCheckRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	Annotations []map[string]any
	Updates     int
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{
		t: t, prs: map[int]map[string]any{}, comments: map[int][]*fakeComment{}, nextID: 1000,
		checkRuns: map[int64]*fakeCheckRun{}, statuses: map[string][]map[string]any{}, reactions: map[int64][]string{}, permissions: map[string]string{},
		defaultRef: "master", fail: map[string]int{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the API base URL to configure (GitHub Enterprise style).
func (f *fakeGitHub) URL() string { return f.srv.URL + "/api/v3/" }

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var parsed map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &parsed); err != nil {
			f.t.Errorf("fake GitHub: %s %s: body is not JSON: %v", r.Method, r.URL.Path, err)
		}
	}
	path := strings.TrimPrefix(r.URL.Path, "/api/v3")
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Method == "POST" && strings.HasPrefix(path, "/app/installations/") && strings.HasSuffix(path, "/access_tokens") {
		// The App's installation token (ghinstallation asks with the App's JWT).
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			f.t.Errorf("fake GitHub: token request without the App's JWT")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token":"test-token","expires_at":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		return
	}
	f.calls = append(f.calls, call{Method: r.Method, Path: path, Body: parsed})
	if got := r.Header.Get("Authorization"); got != "Bearer test-token" && got != "token test-token" {
		f.t.Errorf("fake GitHub: %s %s with Authorization %q", r.Method, path, got)
	}
	for prefix, n := range f.fail {
		if n > 0 && strings.HasPrefix(r.Method+" "+path, prefix) {
			f.fail[prefix] = n - 1
			http.Error(w, `{"message":"bad gateway"}`, http.StatusBadGateway)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", "4321")
	w.Header().Set("X-RateLimit-Reset", "1999999999")
	if r.Method == "GET" && path == "/user" {
		w.WriteHeader(200)
		fmt.Fprint(w, `{"login":"setbot-user","type":"User"}`)
		return
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	reply := func(code int, v any) {
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(v)
	}
	if len(parts) < 3 || parts[0] != "repos" {
		reply(http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	rest := parts[3:]
	switch {
	case r.Method == "GET" && len(rest) == 0:
		reply(200, map[string]any{"default_branch": f.defaultRef, "full_name": parts[1] + "/" + parts[2]})
	case r.Method == "GET" && len(rest) == 2 && rest[0] == "pulls":
		n, _ := strconv.Atoi(rest[1])
		pr, ok := f.prs[n]
		if !ok {
			reply(404, map[string]string{"message": "Not Found"})
			return
		}
		reply(200, pr)
	case r.Method == "GET" && len(rest) == 3 && rest[0] == "issues" && rest[2] == "comments":
		n, _ := strconv.Atoi(rest[1])
		var out []map[string]any
		for _, c := range f.comments[n] {
			out = append(out, map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.User, "type": c.Type}})
		}
		if out == nil {
			out = []map[string]any{}
		}
		reply(200, out)
	case r.Method == "POST" && len(rest) == 3 && rest[0] == "issues" && rest[2] == "comments":
		n, _ := strconv.Atoi(rest[1])
		f.nextID++
		c := &fakeComment{ID: f.nextID, Body: fmt.Sprint(parsed["body"]), User: "setbot-user", Type: "User"}
		if strings.HasPrefix(r.Header.Get("Authorization"), "token ") {
			c.User, c.Type = "setbot[bot]", "Bot" // an App's installation token
		}
		f.comments[n] = append(f.comments[n], c)
		reply(201, map[string]any{"id": c.ID, "body": c.Body})
	case r.Method == "PATCH" && len(rest) == 3 && rest[0] == "issues" && rest[1] == "comments":
		id, _ := strconv.ParseInt(rest[2], 10, 64)
		for _, cs := range f.comments {
			for _, c := range cs {
				if c.ID == id {
					c.Body = fmt.Sprint(parsed["body"])
					reply(200, map[string]any{"id": c.ID, "body": c.Body})
					return
				}
			}
		}
		reply(404, map[string]string{"message": "Not Found"})
	case r.Method == "POST" && len(rest) == 4 && rest[0] == "issues" && rest[1] == "comments" && rest[3] == "reactions":
		id, _ := strconv.ParseInt(rest[2], 10, 64)
		f.reactions[id] = append(f.reactions[id], fmt.Sprint(parsed["content"]))
		reply(201, map[string]any{"id": 1, "content": parsed["content"]})
	case r.Method == "GET" && len(rest) == 3 && rest[0] == "collaborators" && rest[2] == "permission":
		role := f.permissions[rest[1]]
		if role == "" {
			role = "read"
		}
		perm := role
		if role == "maintain" {
			perm = "write"
		}
		reply(200, map[string]any{"permission": perm, "role_name": role, "user": map[string]any{"login": rest[1]}})
	case r.Method == "POST" && len(rest) == 2 && rest[0] == "statuses":
		f.statuses[rest[1]] = append(f.statuses[rest[1]], parsed)
		reply(201, map[string]any{"id": 1, "state": parsed["state"]})
	case r.Method == "POST" && len(rest) == 1 && rest[0] == "check-runs":
		f.nextID++
		run := &fakeCheckRun{ID: f.nextID}
		f.applyCheckRun(run, parsed)
		f.checkRuns[run.ID] = run
		reply(201, map[string]any{"id": run.ID, "name": run.Name, "head_sha": run.HeadSHA, "status": run.Status})
	case r.Method == "PATCH" && len(rest) == 2 && rest[0] == "check-runs":
		id, _ := strconv.ParseInt(rest[1], 10, 64)
		run := f.checkRuns[id]
		if run == nil {
			reply(404, map[string]string{"message": "Not Found"})
			return
		}
		run.Updates++
		f.applyCheckRun(run, parsed)
		reply(200, map[string]any{"id": run.ID, "name": run.Name, "status": run.Status})
	default:
		f.t.Errorf("fake GitHub: unexpected %s %s", r.Method, path)
		reply(404, map[string]string{"message": "Not Found"})
	}
}

func (f *fakeGitHub) applyCheckRun(run *fakeCheckRun, body map[string]any) {
	str := func(k string) string {
		if v, ok := body[k].(string); ok {
			return v
		}
		return ""
	}
	if s := str("name"); s != "" {
		run.Name = s
	}
	if s := str("head_sha"); s != "" {
		run.HeadSHA = s
	}
	if s := str("status"); s != "" {
		run.Status = s
	}
	if s := str("conclusion"); s != "" {
		run.Conclusion = s
	}
	if out, ok := body["output"].(map[string]any); ok {
		run.Title, _ = out["title"].(string)
		run.Summary, _ = out["summary"].(string)
		if as, ok := out["annotations"].([]any); ok {
			for _, a := range as {
				run.Annotations = append(run.Annotations, a.(map[string]any))
			}
		}
	}
}

// addComment adds a comment by a person.
func (f *fakeGitHub) addComment(pr int, user, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.comments[pr] = append(f.comments[pr], &fakeComment{ID: f.nextID, Body: body, User: user, Type: "User"})
}

// addPR registers a pull request the API can return.
func (f *fakeGitHub) addPR(number int, baseRef, baseSHA, headSHA string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prs[number] = map[string]any{
		"number": number, "state": "open",
		"base": map[string]any{"ref": baseRef, "sha": baseSHA},
		"head": map[string]any{"ref": "feature", "sha": headSHA},
	}
}

// snapshot returns copies of what the fake holds.
func (f *fakeGitHub) commentsOf(pr int) []fakeComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeComment
	for _, c := range f.comments[pr] {
		out = append(out, *c)
	}
	return out
}

func (f *fakeGitHub) runsFor(sha string) []fakeCheckRun {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeCheckRun
	for _, r := range f.checkRuns {
		if r.HeadSHA == sha {
			out = append(out, *r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// callsMatching lists the recorded calls "METHOD path" that start with prefix.
func (f *fakeGitHub) callsMatching(prefix string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if strings.HasPrefix(c.Method+" "+c.Path, prefix) {
			out = append(out, c)
		}
	}
	return out
}
