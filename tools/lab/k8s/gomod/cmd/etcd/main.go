// etcd's own server/main.go: `go install go.etcd.io/etcd/server/v3@...` is refused
// because etcd's go.mod carries replace directives.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
