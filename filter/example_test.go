package filter_test

import (
	"fmt"

	"github.com/mcpreg/mcpreg/filter"
	"github.com/mcpreg/mcpreg/model"
)

// A filter keeping the Slack and Snowflake servers, except deprecated ones.
// Names carry their namespace, so the patterns start with "*/"; "*" crosses
// "/".
func ExampleNew() {
	f, err := filter.New(model.IncludeExclude{
		Include: []string{"*/slack-*", "*/snowflake-*"},
		Exclude: []string{"*-deprecated"},
	}, model.IncludeExclude{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{
		"io.github.stacklok/slack-mcp",
		"io.github.stacklok/slack-deprecated",
		"io.github.stacklok/github-mcp",
		"team-b-mcp-servers/snowflake-mcp",
	} {
		fmt.Println(name, f.MatchName(name))
	}
	// Output:
	// io.github.stacklok/slack-mcp true
	// io.github.stacklok/slack-deprecated false
	// io.github.stacklok/github-mcp false
	// team-b-mcp-servers/snowflake-mcp true
}

// A bad pattern is an error at construction, naming it.
func ExampleNew_invalid() {
	_, err := filter.New(model.IncludeExclude{Include: []string{"team-[a/*"}}, model.IncludeExclude{})
	fmt.Println(err != nil)
	// Output:
	// true
}
