// Command kube-controller-manager runs the upstream kube-controller-manager command of k8s.io/kubernetes. It is
// built from source because release binaries cannot be downloaded on the project's machines.
package main

import (
	"os"
	// Embedded zone data, so CronJob time zones resolve without the host tzdata.
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	// Side-effect imports: the JSON log format, client-go and version metrics, which the
	// upstream binary registers the same way.
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
