// Command etcd is a thin wrapper around etcd's own entry point. The etcd server module
// carries replace directives, so `go install go.etcd.io/etcd/server/v3@...` is refused;
// depending on it from this module is the supported way to build the server binary.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
