package bot

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
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
	fail        map[string]int  // "METHOD path-prefix" -> number of 502s still to answer
	forbid      map[string]bool // "METHOD path-prefix" -> refused for good (403)

	// What the tests set to make GitHub misbehave.
	now           func() time.Time   // GitHub's clock
	limits        map[string]limit   // "METHOD path-prefix" -> a rate limit in force
	tokenFails    int                // installation token requests still to refuse
	tokenStatus   int                // how they are refused (0: 403)
	createDelay   time.Duration      // how long a check run creation takes to answer
	lostCreates   int                // check run creations still to answer 502 after creating the run
	installations map[int64][]string // the App's installations and their repositories
	cloneURLs     map[string]string  // repository -> clone URL, for the installations' lists
}

// limit is a rate limit GitHub answers a route with until a time.
type limit struct {
	until  time.Time
	header http.Header // the headers of the answer besides the rate-limit ones
	status int
}

type call struct {
	Method, Path string
	Body         map[string]any
	At           time.Time // by GitHub's clock
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
	DetailsURL  string
	Updates     int
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{
		t: t, prs: map[int]map[string]any{}, comments: map[int][]*fakeComment{}, nextID: 1000,
		checkRuns: map[int64]*fakeCheckRun{}, statuses: map[string][]map[string]any{}, reactions: map[int64][]string{}, permissions: map[string]string{},
		defaultRef: "master", fail: map[string]int{}, forbid: map[string]bool{},
		now: time.Now, limits: map[string]limit{}, installations: map[int64][]string{}, cloneURLs: map[string]string{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the API base URL to configure (GitHub Enterprise style).
func (f *fakeGitHub) URL() string { return f.srv.URL + "/api/v3/" }

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	// The answer is made under the lock and sent after it, so that a slow
	// answer (createDelay) holds up no other request.
	rec := httptest.NewRecorder()
	delay := f.answer(rec, r)
	time.Sleep(delay)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// answer writes the answer to r into w and says how long to wait before
// sending it.
func (f *fakeGitHub) answer(w http.ResponseWriter, r *http.Request) (delay time.Duration) {
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
	now := f.now()
	if r.Method == "POST" && strings.HasPrefix(path, "/app/installations/") && strings.HasSuffix(path, "/access_tokens") {
		// The App's installation token (ghinstallation asks with the App's JWT).
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			f.t.Errorf("fake GitHub: token request without the App's JWT")
		}
		w.Header().Set("Content-Type", "application/json")
		if f.tokenFails > 0 {
			f.tokenFails--
			w.WriteHeader(cmp.Or(f.tokenStatus, http.StatusForbidden))
			fmt.Fprint(w, `{"message":"refused"}`)
			return 0
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token":"test-token","expires_at":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		return 0
	}
	if r.Method == "GET" && path == "/app/installations" {
		// The App's own call, with its JWT.
		var out []map[string]any
		for id := range f.installations {
			out = append(out, map[string]any{"id": id})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
		return 0
	}
	f.calls = append(f.calls, call{Method: r.Method, Path: path, Body: parsed, At: now})
	if got := r.Header.Get("Authorization"); got != "Bearer test-token" && got != "token test-token" {
		f.t.Errorf("fake GitHub: %s %s with Authorization %q", r.Method, path, got)
	}
	for prefix, n := range f.fail {
		if n > 0 && strings.HasPrefix(r.Method+" "+path, prefix) {
			f.fail[prefix] = n - 1
			http.Error(w, `{"message":"bad gateway"}`, http.StatusBadGateway)
			return 0
		}
	}
	for prefix := range f.forbid {
		if strings.HasPrefix(r.Method+" "+path, prefix) {
			http.Error(w, `{"message":"Resource not accessible by integration"}`, http.StatusForbidden)
			return 0
		}
	}
	for prefix, l := range f.limits {
		if strings.HasPrefix(r.Method+" "+path, prefix) && now.Before(l.until) {
			for k, v := range l.header {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(l.status)
			fmt.Fprint(w, `{"message":"API rate limit exceeded"}`)
			return 0
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
	if r.Method == "GET" && path == "/installation/repositories" {
		var repos []map[string]any
		for _, names := range f.installations {
			for _, name := range names {
				owner, repo, _ := strings.Cut(name, "/")
				repos = append(repos, map[string]any{"name": repo, "full_name": name, "owner": map[string]any{"login": owner}, "clone_url": f.cloneURLs[name]})
			}
		}
		reply(200, map[string]any{"total_count": len(repos), "repositories": repos})
		return 0
	}
	if len(parts) < 3 || parts[0] != "repos" {
		reply(http.StatusNotFound, map[string]string{"message": "Not Found"})
		return 0
	}
	rest := parts[3:]
	switch {
	case r.Method == "GET" && len(rest) == 1 && rest[0] == "pulls":
		var out []map[string]any
		for _, n := range slices.Sorted(maps.Keys(f.prs)) {
			if f.prs[n]["state"] == "open" {
				out = append(out, f.prs[n])
			}
		}
		reply(200, out)
	case r.Method == "GET" && len(rest) == 3 && rest[0] == "commits" && rest[2] == "check-runs":
		q := r.URL.Query()
		runs := []map[string]any{}
		for _, id := range slices.Sorted(maps.Keys(f.checkRuns)) {
			run := f.checkRuns[id]
			if run.HeadSHA == rest[1] && (q.Get("check_name") == "" || run.Name == q.Get("check_name")) && (q.Get("status") == "" || run.Status == q.Get("status")) {
				runs = append(runs, map[string]any{"id": run.ID, "name": run.Name, "status": run.Status, "head_sha": run.HeadSHA})
			}
		}
		reply(200, map[string]any{"total_count": len(runs), "check_runs": runs})
	case r.Method == "GET" && len(rest) == 0:
		reply(200, map[string]any{"default_branch": f.defaultRef, "full_name": parts[1] + "/" + parts[2]})
	case r.Method == "GET" && len(rest) == 2 && rest[0] == "pulls":
		n, _ := strconv.Atoi(rest[1])
		pr, ok := f.prs[n]
		if !ok {
			reply(404, map[string]string{"message": "Not Found"})
			return 0
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
					return 0
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
		if f.lostCreates > 0 {
			// Created, but the answer is lost on the way.
			f.lostCreates--
			http.Error(w, `{"message":"bad gateway"}`, http.StatusBadGateway)
			return 0
		}
		reply(201, map[string]any{"id": run.ID, "name": run.Name, "head_sha": run.HeadSHA, "status": run.Status})
		return f.createDelay
	case r.Method == "PATCH" && len(rest) == 2 && rest[0] == "check-runs":
		id, _ := strconv.ParseInt(rest[1], 10, 64)
		run := f.checkRuns[id]
		if run == nil {
			reply(404, map[string]string{"message": "Not Found"})
			return 0
		}
		run.Updates++
		f.applyCheckRun(run, parsed)
		reply(200, map[string]any{"id": run.ID, "name": run.Name, "status": run.Status})
	default:
		f.t.Errorf("fake GitHub: unexpected %s %s", r.Method, path)
		reply(404, map[string]string{"message": "Not Found"})
	}
	return 0
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
	if s := str("details_url"); s != "" {
		run.DetailsURL = s
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

// addPR registers a pull request the API can return, from a branch of
// octo/triangle.
func (f *fakeGitHub) addPR(number int, baseRef, baseSHA, headSHA string) {
	f.addPRFrom(number, baseRef, baseSHA, headSHA, "octo/triangle")
}

// addPRFrom registers a pull request whose head is in the repository
// headRepo: a fork when it is not octo/triangle.
func (f *fakeGitHub) addPRFrom(number int, baseRef, baseSHA, headSHA, headRepo string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prs[number] = map[string]any{
		"number": number, "state": "open",
		"base": map[string]any{"ref": baseRef, "sha": baseSHA, "repo": map[string]any{"full_name": "octo/triangle"}},
		"head": map[string]any{"ref": "feature", "sha": headSHA, "repo": map[string]any{"full_name": headRepo}},
	}
}

// addCheckRun adds a setbot check run in progress on sha, as an earlier
// process would have left it, and returns its id.
func (f *fakeGitHub) addCheckRun(sha string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.checkRuns[f.nextID] = &fakeCheckRun{ID: f.nextID, Name: "setbot", HeadSHA: sha, Status: "in_progress"}
	return f.nextID
}

// inProgress lists the check runs in progress, on any commit.
func (f *fakeGitHub) inProgress() []fakeCheckRun {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeCheckRun
	for _, r := range f.checkRuns {
		if r.Status != "completed" {
			out = append(out, *r)
		}
	}
	return out
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
