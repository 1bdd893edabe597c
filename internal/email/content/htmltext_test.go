package content

import (
	"strings"
	"testing"
)

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		notWant  []string
	}{
		{
			name: "paragraphs, links, lists",
			in:   `<p>Hello <a href="https://example.com/a">there</a></p><ul><li>one</li><li>two</li></ul>`,
			want: []string{"Hello there ( https://example.com/a )", "* one\n* two"},
		},
		{
			name: "table cells stay apart",
			in:   `<table><tr><td>Code</td><td>123456</td></tr><tr><td>Valid</td><td>10 min</td></tr></table>`,
			want: []string{"Code 123456", "Valid 10 min"},
		},
		{
			name: "hidden content dropped",
			in: `<head><title>Title</title><style>.x{}</style></head><body>
				<div style="display: none">hidden1</div>
				<span style="visibility:hidden">hidden2</span>
				<p style="font-size:0px">hidden3</p>
				<p style="opacity: 0">hidden4</p>
				<p hidden>hidden5</p>
				<!-- hidden6 -->
				<script>hidden7()</script>
				<template>hidden8</template>
				<p style="font-size: 0.9em; opacity: 0.8">shown</p>
				</body>`,
			want:    []string{"shown"},
			notWant: []string{"hidden", "Title", ".x{}"},
		},
		{
			name: "entities decoded",
			in:   `<p>Fish &amp; chips &euro;5 &lt;b&gt;</p>`,
			want: []string{"Fish & chips €5 <b>"},
		},
		{name: "empty", in: "  ", want: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HTMLToText(tt.in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("HTMLToText = %q, lacks %q", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("HTMLToText = %q, contains %q", got, w)
				}
			}
		})
	}
}
