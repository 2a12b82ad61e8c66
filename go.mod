module pgasrob

go 1.26

require (
	github.com/bits-and-blooms/bitset v1.29.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgraph-io/ristretto/v2 v2.4.2 // indirect
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/sys v0.36.0 // indirect
)
