// Command ferretdb-local runs FerretDB v1 (MongoDB wire protocol on top of
// SQLite) as a small local server for development and tests on machines
// without a Docker engine. stack/start.sh builds it into the stack cache
// folder and starts it in the background.
//
// Why an embedding program instead of `go install` of FerretDB itself: the
// FerretDB v1 main package panics at start when built from the module proxy,
// because build/version/version.txt is generated at release time and is not in
// the module. The embeddable package (github.com/FerretDB/FerretDB/ferretdb)
// skips that check whenever the main module is not FerretDB's own, so
// embedding it is the supported route and needs no workaround.
//
// Usage:
//
//	ferretdb-local -listen 127.0.0.1:27017 -data-dir /path/to/sqlite-dir
//
// It runs until SIGINT or SIGTERM, then closes connections and the SQLite
// databases before exiting.
//
//	ferretdb-local -ping mongodb://127.0.0.1:27017/
//
// sends a real MongoDB "ping" command to any MongoDB-wire server (with the Go
// driver FerretDB itself depends on) and exits 0 if it answers: the stack
// scripts use it as a health check that needs no Node packages installed.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (host:port)")
	dataDir := flag.String("data-dir", "", "directory for the SQLite databases (created if missing; required)")
	logLevel := flag.String("log-level", "info", "log level: debug, info, warn or error")
	pingURL := flag.String("ping", "", "instead of serving, ping the MongoDB server at this URI and exit")
	flag.Parse()

	var err error
	if *pingURL != "" {
		err = ping(*pingURL)
	} else {
		err = run(*listen, *dataDir, *logLevel)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-local: %s\n", err)
		os.Exit(1)
	}
}

func run(listen, dataDir, logLevel string) error {
	if dataDir == "" {
		return fmt.Errorf("-data-dir is required")
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("bad -log-level %q: %w", logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// The SQLite handler wants an existing directory given as a "file:" URI
	// whose path ends with "/" (one SQLite file per MongoDB database).
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if err = os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	sqliteURL := (&url.URL{Scheme: "file", Path: abs + "/"}).String()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	// New has already bound the listener (a busy port fails above), so the
	// URI is known; log it so the log file shows where clients connect.
	logger.Info("FerretDB ready", "uri", f.MongoDBURI(), "sqlite", sqliteURL, "pid", os.Getpid())

	err = <-done
	logger.Info("FerretDB stopped")
	return err
}

// ping connects to uri, runs {ping: 1} and prints the server's reported version.
func ping(uri string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	client, err := mongo.Connect(ctx, options.Client().ApplyURI(uri).SetServerSelectionTimeout(3*time.Second))
	if err != nil {
		return fmt.Errorf("connect %s: %w", uri, err)
	}
	defer client.Disconnect(context.Background()) //nolint:errcheck // best effort on exit

	admin := client.Database("admin")
	if err = admin.RunCommand(ctx, bson.D{{Key: "ping", Value: 1}}).Err(); err != nil {
		return fmt.Errorf("ping %s: %w", uri, err)
	}

	var info struct {
		Version string `bson:"version"`
	}
	_ = admin.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info)
	fmt.Printf("ping ok (server reports MongoDB %s)\n", info.Version)
	return nil
}
