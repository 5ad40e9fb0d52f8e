//go:build tools

// Records the binary the lab builds so that go mod tidy pins all its dependencies.
package tools

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
