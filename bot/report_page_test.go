package bot

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestReportPage checks the report page of a pull request's analysis: the
// check run's details and the comment link to it by a signed link, which
// serves the page (rendered in the analysis's child process and stored in
// the database); a link with another signature or another page's id gets
// 404, and an expired one 410.
func TestReportPage(t *testing.T) {
	e := newEnv(t)
	e.cfg.PublicURL = "https://setbot.example.com/"
	clock := e.useFakeClock()
	e.start()
	if code, _ := e.send("pull_request.synchronize", "d-1"); code != http.StatusAccepted {
		t.Fatalf("synchronize: %d", code)
	}
	e.idle()
	runs := e.gh.runsFor(c3)
	if len(runs) != 1 || !strings.HasPrefix(runs[0].DetailsURL, "https://setbot.example.com/report/") {
		t.Fatalf("check runs %+v, want one whose details are the report page", runs)
	}
	link := runs[0].DetailsURL
	if comments := e.gh.commentsOf(7); len(comments) != 1 || !strings.Contains(comments[0].Body, "[See the change]("+link+")") {
		t.Errorf("the comment does not link to the page %s", link)
	}
	get := func(u string) (int, string, http.Header) {
		t.Helper()
		resp, err := http.Get(strings.Replace(u, "https://setbot.example.com", e.http.URL, 1))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), resp.Header
	}
	code, body, h := get(link)
	if code != http.StatusOK || !strings.Contains(body, `class="finding f-unreachable" data-subject="S1_S2"`) {
		t.Fatalf("GET %s: %d, want the page showing S1_S2 unreachable\n%.300s", link, code, body)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q, want default-src 'none' (the page loads nothing)", csp)
	}
	u, _ := url.Parse(link)
	q := u.Query()
	forged := *u
	q.Set("sig", strings.Repeat("0", 64))
	forged.RawQuery = q.Encode()
	other := *u
	other.Path = "/report/" + pageID("octo/other", c2, c3)
	for _, bad := range []string{forged.String(), other.String(), "https://setbot.example.com/report/", "https://setbot.example.com/report/" + strings.TrimPrefix(u.Path, "/report/")} {
		if code, _, _ := get(bad); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", bad, code)
		}
	}
	clock.Advance(pageLinkTTL + 48*time.Hour)
	if code, _, _ := get(link); code != http.StatusGone {
		t.Errorf("GET an expired link: %d, want 410", code)
	}
}
