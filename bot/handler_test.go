package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestHandlersPassOverOtherActions: every handler that names the actions
// needing work answers another action as ignored, without jobs, so a
// handler whose payload had no GetAction would fail here rather than
// queue work for every action.
func TestHandlersPassOverOtherActions(t *testing.T) {
	for _, h := range []EventHandler{pullRequest, checkRun, checkSuite, mergeGroup, issueComment} {
		event := h.Handles()[0]
		if reflect.ValueOf(h).FieldByName("actions").Len() == 0 {
			t.Errorf("%s: the handler names no actions", event)
		}
		jobs, ignored, err := h.Handle(context.Background(), event, "d", []byte(`{"action":"bogus"}`))
		if err != nil || len(jobs) != 0 || !strings.Contains(ignored, "action bogus needs nothing") {
			t.Errorf("%s action bogus: jobs %v, ignored %q, err %v; want it ignored", event, jobs, ignored, err)
		}
	}
}
