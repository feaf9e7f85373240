module example.com/commit

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1
	github.com/vigil-check/vigil v0.0.0
)

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)

replace github.com/vigil-check/vigil => ../..
