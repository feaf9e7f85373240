module vettest

go 1.26.8

require github.com/vigil-check/vigil v0.0.0

require github.com/anishathalye/porcupine v1.3.1 // indirect

replace github.com/vigil-check/vigil => ../../../..
