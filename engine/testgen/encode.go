package testgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
)

// storedTest is a test with the tree node it drives to, by ID.
type storedTest struct {
	*Test
	Leaf int `json:"leaf"`
}

// EncodeSuite encodes a suite of tests of one tree, so that DecodeSuite,
// given the same tree (decoded or not), returns the same suite. It stops
// between two tests once ctx ends.
func EncodeSuite(ctx context.Context, tests []*Test) ([]byte, error) {
	out := []byte{'['}
	for i, t := range tests {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if t.Leaf == nil {
			return nil, fmt.Errorf("encoding test %s: it has no tree node", t.ID)
		}
		b, err := json.Marshal(storedTest{Test: t, Leaf: t.Leaf.ID})
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

// DecodeSuite decodes a suite EncodeSuite wrote for set. It stops between
// two tests once ctx ends.
func DecodeSuite(ctx context.Context, set *engine.SET, data []byte) ([]*Test, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("decoding a test suite: not a list of tests")
	}
	var out []*Test
	for i := 0; dec.More(); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var s storedTest
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("decoding a test suite: %w", err)
		}
		if s.Test == nil || s.Leaf < 0 || s.Leaf >= len(set.Nodes) {
			return nil, fmt.Errorf("decoding a test suite: test %d names no node of the tree", i)
		}
		for j := range s.Test.Steps {
			st := &s.Test.Steps[j]
			if err := numbers(st.Args); err != nil {
				return nil, fmt.Errorf("decoding test %s: %w", s.Test.ID, err)
			}
			for _, o := range st.Outputs {
				if err := numbers(o.Args); err != nil {
					return nil, fmt.Errorf("decoding test %s: %w", s.Test.ID, err)
				}
			}
		}
		s.Test.Leaf = set.Nodes[s.Leaf]
		out = append(out, s.Test)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("decoding a test suite: %w", err)
	}
	if out == nil {
		out = []*Test{}
	}
	return out, nil
}

// numbers turns the JSON numbers of decoded arguments back into the
// values tests carry, int64 or (written with a point or an exponent)
// sim.Decimal, so a decoded test equals the test that was encoded.
func numbers(args map[string]any) error {
	for k, v := range args {
		if n, ok := v.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
			r, err := sim.Decimal(n).Rat()
			if err != nil {
				return fmt.Errorf("argument %s: %w", k, err)
			}
			if args[k], err = sim.DecimalOf(r); err != nil {
				return fmt.Errorf("argument %s: %w", k, err)
			}
			continue
		}
		if n, ok := v.(json.Number); ok {
			i, err := n.Int64()
			if err != nil {
				return fmt.Errorf("argument %s: %w", k, err)
			}
			args[k] = i
		}
	}
	return nil
}
