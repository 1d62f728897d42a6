module github.com/nodewright/nodewright/deploy/kind/build/pause

go 1.26.0
