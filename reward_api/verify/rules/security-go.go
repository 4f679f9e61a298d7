// Fixture for security-go.yaml, checked by `semgrep --test`.
package main

import (
	"net"
	"net/http"
	"os/exec"
	"strings"
)

func run() int {
	// ruleid: go-process-spawn
	out, _ := exec.Command("ls").Output()
	// ruleid: go-network-access
	conn, _ := net.Dial("tcp", "example.com:80")
	// ruleid: go-network-access
	resp, _ := http.Get("http://example.com/answers")
	// ok: go-process-spawn
	parts := strings.Split("a b", " ")
	_, _ = conn, resp
	return len(out) + len(parts)
}
