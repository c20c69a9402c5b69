package schedule

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/setbot/setbot/cache"
)

func TestSetAndList(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	open := func() (*cache.Store, Backend) {
		store, err := cache.Open(path, cache.Options{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(ctx, store)
		if err != nil {
			t.Fatal(err)
		}
		return store, s
	}
	store, s := open()
	tri := Entry{Repo: "octo/triangle", Branch: "main", Spec: "0 3 * * *", Installation: 7, CloneURL: "https://github.com/octo/triangle.git"}
	sq := Entry{Repo: "octo/square", Branch: "trunk", Spec: "@daily", Installation: 8, CloneURL: "https://github.com/octo/square.git"}
	moved := tri
	moved.Spec, moved.Installation = "0 4 * * 1", 9
	gone := sq
	gone.Spec = ""

	for _, step := range []struct {
		name string
		set  Entry
		want []Entry
	}{
		{"one", tri, []Entry{tri}},
		{"another, listed first", sq, []Entry{sq, tri}},
		{"the same again", sq, []Entry{sq, tri}},
		{"a change replaces it", moved, []Entry{sq, moved}},
		{"no spec forgets it", gone, []Entry{moved}},
		{"forgetting twice", gone, []Entry{moved}},
	} {
		if err := s.Set(ctx, step.set); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got, err := s.List(ctx); err != nil || !slices.Equal(got, step.want) {
			t.Errorf("%s: List = %+v, %v; want %+v", step.name, got, err, step.want)
		}
	}

	// They survive a restart.
	store.Close()
	store, s = open()
	defer store.Close()
	if got, err := s.List(ctx); err != nil || !slices.Equal(got, []Entry{moved}) {
		t.Errorf("after reopening: List = %+v, %v", got, err)
	}
}
