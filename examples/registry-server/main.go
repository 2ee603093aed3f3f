package main

import (
	"log"
	"net/http"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/model"
)

func main() {
	reg, err := NewRegistry(discovery.Options{LastUpdated: time.Now()})
	if err != nil {
		log.Fatal(err)
	}
	events := watch.NewFake()
	go reg.Run(events, func(err error) { log.Print(err) })
	go events.Add(&model.MCPServerEntry{
		ObjectMeta: metav1.ObjectMeta{Namespace: "catalog", Name: "context7", Annotations: map[string]string{
			discovery.AnnotationExport: "true", discovery.AnnotationDescription: "Library documentation"}},
		Spec: model.MCPServerEntrySpec{RemoteURL: "https://mcp.context7.com/mcp", Transport: model.TransportStreamableHTTP,
			GroupRef: &model.GroupRef{Name: "vendors"}},
	})
	addr := ":8080"
	if a := os.Getenv("ADDR"); a != "" {
		addr = a
	}
	log.Printf("serving the registry API on %s", addr)
	log.Fatal(http.ListenAndServe(addr, reg))
}
