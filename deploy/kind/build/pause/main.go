// Command pause is the pod sandbox process of the local kind node image: it blocks until
// SIGINT or SIGTERM and reaps orphaned children meanwhile (it is PID 1 of the pod's PID
// namespace when that is shared). A stand-in for registry.k8s.io/pause, which cannot be
// pulled here; test infrastructure, not product code.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-v" {
		os.Stdout.WriteString("pause (nodewright local build)\n")
		return
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for sig := range signals {
		if sig != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var status syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
