package html

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/setbot/setbot/model"
)

// Limits of the Graphviz layout: above maxDotStates states dot takes
// seconds to minutes and the box layout is used; dotTimeout stops a dot
// that takes too long anyway.
const (
	maxDotStates = 400
	dotTimeout   = 10 * time.Second
)

// dotSVG lays g out with Graphviz's dot (compound states as clusters) and
// returns its SVG, whose elements carry g's ids and classes; ok is false
// when dot is not installed, fails or takes too long.
func dotSVG(ctx context.Context, g *graph, dotPath string) (string, bool) {
	if dotPath == "" || len(g.nodes) > maxDotStates {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, dotTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, dotPath, "-Tsvg")
	cmd.Stdin = strings.NewReader(dotSource(g))
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", false
	}
	svg := out.String()
	i := strings.Index(svg, "<svg")
	if i < 0 {
		return "", false
	}
	svg = svg[i:]
	// dot sets the size in points; the page scales the drawing itself.
	return strings.Replace(svg, "<svg ", `<svg class="chart" `, 1), true
}

// dotSource is g in the DOT language: a cluster per compound or parallel
// state, with an invisible anchor node for the arrows that start or end at
// it (lhead/ltail clip them at the cluster's border).
func dotSource(g *graph) string {
	var b strings.Builder
	b.WriteString("digraph statechart {\n  compound=true; rankdir=LR; nodesep=0.35; ranksep=0.5;\n")
	b.WriteString("  node [shape=box style=\"rounded,filled\" fillcolor=\"#ffffff\" fontname=\"sans-serif\" fontsize=11 height=0.4];\n")
	b.WriteString("  edge [fontname=\"sans-serif\" fontsize=9 arrowsize=0.7];\n")
	for _, c := range g.root.Children {
		dotState(&b, g, c, "  ")
	}
	for _, e := range g.edges {
		from, ltail := dotEnd(g, e.from)
		to, lhead := dotEnd(g, e.to)
		attrs := fmt.Sprintf("id=%q class=%q label=%q tooltip=%q", e.id, e.class, e.label, e.title)
		if ltail != "" && ltail != lhead {
			attrs += " ltail=" + ltail
		}
		if lhead != "" && lhead != ltail {
			attrs += " lhead=" + lhead
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", from, to, attrs)
	}
	b.WriteString("}\n")
	return b.String()
}

func dotState(b *strings.Builder, g *graph, s *model.State, indent string) {
	n := g.nodes[s]
	if len(s.Children) == 0 {
		shape := ""
		switch s.Kind {
		case model.Final:
			shape = " peripheries=2"
		case model.History:
			shape = " shape=circle width=0.3"
		}
		fmt.Fprintf(b, "%s%s [id=%q class=%q label=%q tooltip=%q%s];\n", indent, dotName(g, n), n.id, n.class, n.label, s.ID, shape)
		return
	}
	style := "rounded"
	if s.Kind == model.Parallel {
		style = "rounded,dashed"
	}
	fmt.Fprintf(b, "%ssubgraph cluster_%s {\n%s  id=%q class=%q label=%q style=%q labeljust=l fontname=\"sans-serif\" fontsize=11;\n",
		indent, strings.TrimPrefix(n.id, g.prefix+"st-"), indent, n.id, n.class, n.label, style)
	fmt.Fprintf(b, "%s  %s [shape=point style=invis width=0 label=\"\"];\n", indent, dotName(g, n))
	for _, c := range s.Children {
		dotState(b, g, c, indent+"  ")
	}
	fmt.Fprintf(b, "%s}\n", indent)
}

// dotName is the DOT node of a state: its own, or its cluster's anchor.
func dotName(g *graph, n node) string { return "n" + strings.TrimPrefix(n.id, g.prefix+"st-") }

// dotEnd is the node an arrow to or from s attaches to, and the cluster it
// is clipped at ("" for a simple state).
func dotEnd(g *graph, s *model.State) (string, string) {
	n := g.nodes[s]
	if len(s.Children) == 0 {
		return dotName(g, n), ""
	}
	return dotName(g, n), "cluster_" + strings.TrimPrefix(n.id, g.prefix+"st-")
}
