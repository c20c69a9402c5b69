package bot

import (
	"bufio"
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

// served runs the bot's Serve as serve does, and returns the function that
// stops it and checks what Serve returned.
func (e *env) served() (base string, stop func()) {
	e.t.Helper()
	base, cancel, served := e.serve()
	return base, func() {
		cancel()
		if err := <-served; err != nil {
			e.t.Errorf("Serve: %v", err)
		}
	}
}

// closeAll closes the connections *conns (deferred before they are all
// opened).
func closeAll(conns *[]net.Conn) {
	for _, c := range *conns {
		c.Close()
	}
}

// stillOpen checks that the server has neither answered nor closed any of
// conns.
func stillOpen(t *testing.T, conns []net.Conn) {
	t.Helper()
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("slow connection %d: read %v, want it still open", i, err)
		}
	}
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
	base, stop := e.served()
	defer stop()
	addr := base[len("http://"):]
	const slow = 100
	var conns []net.Conn
	defer closeAll(&conns)
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
	stillOpen(t, conns)
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

// slowRequest opens a connection to the server at addr and sends the
// headers of a delivery declaring a body of length bytes, and the body's
// first byte.
func slowRequest(t *testing.T, addr string, i int, length int64) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	start := fmt.Sprintf("POST /webhook HTTP/1.1\r\nHost: setbot\r\nX-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow-%d\r\n"+
		"X-Hub-Signature-256: sha256=00\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", i, length)
	if _, err := io.WriteString(c, start); err != nil {
		t.Fatal(err)
	}
	return c
}

// trickle writes a byte to each connection every interval until stop is
// closed.
func trickle(conns []net.Conn, interval time.Duration, stop chan struct{}) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			for _, c := range conns {
				_, _ = c.Write([]byte(" "))
			}
		}
	}
}

// TestSlowLargeBodies: 100 connections each declare a body of
// max_body_bytes and send it a byte at a time. They hold no share of the
// memory budget for what they only declared, so six genuine deliveries
// sent at once beside them are all accepted, while every slow connection
// is still open (before the minimum rate cuts them).
func TestSlowLargeBodies(t *testing.T) {
	e := newEnv(t)
	e.cfg.MaxBodyBytes = DefaultMaxBodyBytes
	// The slow connections stay within their grace for the whole test.
	e.intake = IntakeLimits{BodyGrace: 2 * time.Minute, BodyTimeout: 3 * time.Minute}
	e.open()
	defer e.close()
	base, stop := e.served()
	defer stop()
	const slow = 100
	var conns []net.Conn
	defer closeAll(&conns)
	for i := range slow {
		conns = append(conns, slowRequest(t, base[len("http://"):], i, DefaultMaxBodyBytes))
	}
	stopTrickle := make(chan struct{})
	defer close(stopTrickle)
	go trickle(conns, 100*time.Millisecond, stopTrickle)
	for deadline := time.Now().Add(30 * time.Second); e.metric("setbot_webhook_bodies_reading") < slow; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%v of the %d slow bodies are being read at once", e.metric("setbot_webhook_bodies_reading"), slow)
		}
	}

	const genuine = 6
	type result struct {
		code    int
		a       webhookAnswer
		err     error
		latency time.Duration
	}
	results := make(chan result, genuine)
	for i := range genuine {
		go func() {
			start := time.Now()
			code, a, err := e.deliver(base, "pull_request.opened", fmt.Sprintf("d-genuine-%d", i))
			results <- result{code, a, err, time.Since(start)}
		}()
	}
	for range genuine {
		r := <-results
		t.Logf("genuine delivery beside %d slow bodies: %d %s in %v", slow, r.code, r.a.Status, r.latency)
		if r.err != nil || r.code != http.StatusAccepted || r.a.Status != "queued" {
			t.Errorf("a genuine delivery beside %d slow bodies: %d %+v %v; want 202 queued", slow, r.code, r.a, r.err)
		}
	}
	stillOpen(t, conns)
	e.idle()
}

// TestMinimumBodyRate: once the grace has passed, a body that falls behind
// the minimum rate is cut with 408, and one sent in pieces above it is
// read whole.
func TestMinimumBodyRate(t *testing.T) {
	e := newEnv(t)
	e.intake = IntakeLimits{BodyGrace: 300 * time.Millisecond, MinBodyRate: 256, BodyTimeout: time.Minute}
	e.open()
	defer e.close()
	base, stop := e.served()
	defer stop()
	addr := base[len("http://"):]

	slow := slowRequest(t, addr, 0, 100_000)
	defer slow.Close()
	stopTrickle := make(chan struct{})
	defer close(stopTrickle)
	go trickle([]net.Conn{slow}, 100*time.Millisecond, stopTrickle) // 10 bytes/s
	start := time.Now()
	_ = slow.SetReadDeadline(time.Now().Add(30 * time.Second)) // half the body timeout
	resp, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatalf("the slow body was not answered before half its body timeout: %v", err)
	}
	resp.Body.Close()
	t.Logf("a body at 10 bytes/s cut after %v: %s", time.Since(start), resp.Status)
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("a body at 10 bytes/s: %s, want 408", resp.Status)
	}

	// A genuine delivery in four pieces over 0.8 s: past the grace, above
	// the rate.
	body := []byte(`{"zen":"` + strings.Repeat("Keep it logically awesome. ", 40) + `","hook_id":1}`)
	sig := Sign([]byte(testSecret), body)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := fmt.Sprintf("POST /webhook HTTP/1.1\r\nHost: setbot\r\nX-GitHub-Event: ping\r\nX-GitHub-Delivery: d-paced\r\n"+
		"X-Hub-Signature-256: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", sig, len(body))
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		time.Sleep(200 * time.Millisecond)
		if _, err := c.Write(body[i*len(body)/4 : (i+1)*len(body)/4]); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a delivery paced above the minimum rate: %s, want 200", resp.Status)
	}
}

// TestSharedBodyBudget: the bytes of a body beyond its own share come from
// the shared budget; with none left, a large body is answered 503 once it
// has waited as long as its rate allows, and a small one beside it needs
// none and is accepted.
func TestSharedBodyBudget(t *testing.T) {
	e := newEnv(t)
	e.intake = IntakeLimits{BodyTimeout: time.Second} // how long a body may wait for room
	e.open()
	defer e.close()
	e.bot.reading = newBudget(bodyChunk)
	if !e.bot.reading.acquire(context.Background(), bodyChunk) {
		t.Fatal("the budget is not free")
	}
	large := []byte(`{"zen":"` + strings.Repeat("x", freeBodyBytes) + `"}`)
	code, a := e.post("ping", "d-large", large, Sign([]byte(testSecret), large))
	if code != http.StatusServiceUnavailable || a.Status != "error" {
		t.Errorf("a body beyond its own share with the budget spent: %d %+v, want 503", code, a)
	}
	small := []byte(`{"zen":"small"}`)
	if code, a := e.post("ping", "d-small", small, Sign([]byte(testSecret), small)); code != http.StatusOK {
		t.Errorf("a small body with the budget spent: %d %+v, want 200", code, a)
	}
	e.bot.reading.release(bodyChunk)
	if code, a := e.post("ping", "d-large-2", large, Sign([]byte(testSecret), large)); code != http.StatusOK {
		t.Errorf("a body beyond its own share with the budget free: %d %+v, want 200", code, a)
	}
}
