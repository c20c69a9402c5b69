package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
)

// serve runs the bot's Serve on a loopback listener and returns its base
// URL, the function that stops it (SIGTERM), and the channel Serve's
// error arrives on.
func (e *env) serve() (base string, stop context.CancelFunc, served chan error) {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served = make(chan error, 1)
	go func() { served <- e.bot.Serve(ctx, ln) }()
	return "http://" + ln.Addr().String(), cancel, served
}

// deliver posts a signed fixture to the server at base; the event is the
// name up to the dot.
func (e *env) deliver(base, name, delivery string) (int, webhookAnswer, error) {
	e.t.Helper()
	body, sig := fixture(e.t, name)
	return e.postTo(base, strings.SplitN(name, ".", 2)[0], delivery, body, sig)
}

// TestSlowClients: 100 connections stall, half in their headers and half
// in their bodies, and hold nothing a genuine delivery needs: it is
// accepted while they are all still open.
func TestSlowClients(t *testing.T) {
	e := newEnv(t)
	e.open()
	defer e.close()
	base, stop, served := e.serve()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	addr := base[len("http://"):]
	const slow = 100
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range slow {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		start := "POST /webhook HTTP/1.1\r\nHost: setbot\r\nX-GitHub-Event: pull_request\r\n"
		if i%2 == 1 {
			start += fmt.Sprintf("X-GitHub-Delivery: slow-%d\r\nX-Hub-Signature-256: sha256=00\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"action\":", i)
		}
		if _, err := io.WriteString(c, start); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until the server reads the stalled bodies.
	for deadline := time.Now().Add(30 * time.Second); e.metric("setbot_webhook_bodies_reading") < slow/2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%v of the %d stalled bodies are being read at once", e.metric("setbot_webhook_bodies_reading"), slow/2)
		}
	}

	code, a, err := e.deliver(base, "pull_request.opened", "d-genuine")
	if err != nil || code != http.StatusAccepted || a.Status != "queued" {
		t.Fatalf("the genuine delivery beside %d slow connections: %d %+v %v", slow, code, a, err)
	}
	// Nothing made room for it: every slow connection is still open.
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("slow connection %d: read %v, want it still open", i, err)
		}
	}
	e.idle()
	if n := len(e.jobs(queue.Done)); n != 1 {
		t.Errorf("%d jobs done, want the genuine delivery's", n)
	}
}

// TestDrain: from the shutdown signal until the running job has finished,
// /readyz answers 503 and a delivery is answered 503 (GitHub lists it as
// failed, to redeliver), not met by a closed connection.
func TestDrain(t *testing.T) {
	e := newEnv(t)
	entered, release := e.blockFirstSolver()
	e.open()
	defer e.close()
	base, stop, served := e.serve()
	get := func(path string) (int, map[string]string, error) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body, nil
	}
	if code, _, err := e.deliver(base, "pull_request.opened", "d-drain-1"); err != nil || code != http.StatusAccepted {
		t.Fatalf("delivery before the shutdown: %d %v", code, err)
	}
	<-entered
	stop()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		code, body, err := get("/readyz")
		if err != nil {
			t.Fatalf("/readyz during the drain: %v", err)
		}
		if code == http.StatusServiceUnavailable && body["status"] == "draining" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d %v after the shutdown signal", code, body)
		}
	}
	code, a, err := e.deliver(base, "push.default_branch", "d-drain-2")
	if err != nil || code != http.StatusServiceUnavailable || a.Status != "error" {
		t.Errorf("delivery during the drain: %d %+v %v; want 503", code, a, err)
	}
	if code, _, err := get("/healthz"); err != nil || code != http.StatusOK {
		t.Errorf("/healthz during the drain: %d %v", code, err)
	}
	if code, _, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz later in the drain: %d", code)
	}
	close(release)
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Serve did not return after the drain")
	}
	if _, _, err := get("/healthz"); err == nil {
		t.Error("still serving after the drain")
	}
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Errorf("the running job's check: %+v; want it finished during the drain", runs)
	}
	if n := len(e.jobs(queue.Queued)); n != 0 {
		t.Errorf("%d jobs queued by deliveries during the drain", n)
	}
}
