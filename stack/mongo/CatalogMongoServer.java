import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

/**
 * The local stack's MongoDB-wire server: mongo-java-server with its H2 MVStore backend, kept in one
 * file so the demo inventory survives restarts. Unique indexes (and _id) serve equality and $in lookups;
 * see docs/decisions.md for what it does not do.
 *
 * Its maps are kept in types of this server's own (CatalogDatabase): unique indexes (every
 * collection's _id among them) ordered by value (KeyOrder) and documents stored as BSON
 * (BsonDocuments). The backend's own types Java-serialize keys to compare them and documents to store
 * them, which cost most of the server's processor time in lookups and in a rebuild's read.
 *
 * Usage: java -cp <jars>:<classes> CatalogMongoServer HOST PORT DATA_FILE [CACHE_MB]
 */
public final class CatalogMongoServer {

    /**
     * What the server says it is in hello and buildInfo: MongoDB 4.4, wire version 9, the oldest the
     * Node driver 7 accepts. mongo-java-server 1.47.0 says 5.0 with wire version 8, which the driver 7
     * refuses; the label changes nothing else on the server, and the driver enables nothing between
     * wire versions 8 and 9 (see docs/decisions.md, "The local stack's servers").
     */
    private static final MongoVersion HANDSHAKE_VERSION = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(4, 4, 0);
        }

        @Override
        public int getWireVersion() {
            return 9;
        }
    };

    /**
     * The one MVStore of this process. The backend opens the databases already in the file from its
     * constructor, before a subclass's fields are set, so their maps find the store here.
     */
    static MVStore store;

    /** The H2 backend, with databases whose maps are kept in this server's types (CatalogDatabase). */
    static final class CatalogBackend extends H2Backend {
        CatalogBackend(MVStore mvStore) {
            super(mvStore);
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new CatalogDatabase(databaseName, store, getCursorRegistry());
        }
    }

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

        store = new MVStore.Builder()
            .fileName(file.toString())
            .cacheSize(cacheMb)
            // compress pages: home documents carry long, repetitive calendars
            .compress()
            .open();
        H2Backend backend = new CatalogBackend(store);
        backend.version(HANDSHAKE_VERSION);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // shutdown() closes the backend, which commits and closes the MVStore file
            server.shutdown();
        }, "catalog-mongo-shutdown"));
        System.err.println("catalog-mongo: listening on " + host + ":" + port + ", data " + file);
    }
}
