module github.com/pgasrob/pgasrob

go 1.26

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/spf13/pflag v1.0.10
)
