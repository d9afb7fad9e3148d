import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

/**
 * The local stack's MongoDB-wire server: mongo-java-server with its H2 MVStore backend, kept in one
 * file so the demo inventory survives restarts. Unique indexes (and _id) serve equality and $in lookups;
 * see docs/decisions.md for what it does not do.
 *
 * Usage: java -cp <jars>:<classes> CatalogMongoServer HOST PORT DATA_FILE [CACHE_MB]
 */
public final class CatalogMongoServer {

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CatalogMongoServer HOST PORT DATA_FILE [CACHE_MB]");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        Path file = Path.of(args[2]).toAbsolutePath();
        int cacheMb = args.length > 3 ? Integer.parseInt(args[3]) : 256;
        Files.createDirectories(file.getParent());

        MVStore store = new MVStore.Builder()
            .fileName(file.toString())
            .cacheSize(cacheMb)
            // compress pages: home documents carry long, repetitive calendars
            .compress()
            .open();
        H2Backend backend = new H2Backend(store);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // shutdown() closes the backend, which commits and closes the MVStore file
            server.shutdown();
        }, "catalog-mongo-shutdown"));
        System.err.println("catalog-mongo: listening on " + host + ":" + port + ", data " + file);
    }
}
