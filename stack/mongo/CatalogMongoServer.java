import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;

/**
 * The local stack's MongoDB-wire server: mongo-java-server with its H2 MVStore backend, kept in one
 * file so the demo inventory survives restarts. Unique indexes (and _id) serve equality and $in lookups;
 * see docs/decisions.md for what it does not do.
 *
 * Its unique indexes (every collection's _id among them) are kept in maps ordered by KeyOrder, which
 * compares keys by value. The backend's own maps order their keys by their Java serialization, made
 * anew for both sides of every comparison of a lookup: that was over a third of the server's processor
 * time in the watches bench. An index kept the old way is copied into the new order when it opens.
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
     * constructor, before a subclass's fields are set, so their index maps find the store here.
     */
    private static MVStore store;

    /** Suffix of the map names of the indexes kept in KeyOrder (the backend's own map has the name without it). */
    private static final String KEYED = ".by-value";

    /** The H2 backend, with databases whose unique indexes are kept in KeyOrder. */
    static final class KeyedBackend extends H2Backend {
        KeyedBackend(MVStore mvStore) {
            super(mvStore);
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new KeyedDatabase(databaseName, store, getCursorRegistry());
        }
    }

    static final class KeyedDatabase extends H2Database {
        KeyedDatabase(String databaseName, MVStore mvStore, CursorRegistry cursors) {
            super(databaseName, mvStore, cursors);
        }

        private String indexMapName(String collectionName, String indexName) {
            return getFullCollectionNamespace(collectionName) + "._index_" + indexName;
        }

        @Override
        protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
            String plain = indexMapName(collectionName, indexName);
            MVMap<KeyValue, Object> map = store.openMap(plain + KEYED, new MVMap.Builder<KeyValue, Object>().keyType(new KeyOrder()));
            if (store.hasMap(plain)) {
                // Kept by the backend's own map: copied whole (again, if a copy was cut short), then that map goes.
                MVMap<KeyValue, Object> old = store.openMap(plain);
                map.clear();
                for (Map.Entry<KeyValue, Object> entry : old.entrySet()) {
                    map.put(entry.getKey(), entry.getValue());
                }
                store.removeMap(old);
                store.commit();
                System.err.println("catalog-mongo: index " + plain + " now ordered by value (" + map.sizeAsLong() + " keys)");
            }
            return new KeyedUniqueIndex(map, indexName, keys, sparse);
        }

        @Override
        protected void dropIndex(MongoCollection<Object> collection, String indexName) {
            super.dropIndex(collection, indexName);
            String name = indexMapName(collection.getCollectionName(), indexName) + KEYED;
            if (store.hasMap(name)) {
                store.removeMap(name);
            }
        }
    }

    /** A unique index whose keys and document positions are an MVMap's entries. */
    static final class KeyedUniqueIndex extends AbstractUniqueIndex<Object> {
        private final MVMap<KeyValue, Object> map;

        KeyedUniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
            super(name, keys, sparse);
            this.map = map;
        }

        @Override
        protected Object getPosition(KeyValue key) {
            return map.get(key);
        }

        @Override
        protected boolean putKeyPosition(KeyValue key, Object position) {
            return map.putIfAbsent(key, Missing.ofNullable(position)) == null;
        }

        @Override
        protected Object removeDocument(KeyValue key) {
            return map.remove(key);
        }

        @Override
        protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
            return map.entrySet();
        }

        @Override
        public long getCount() {
            return map.sizeAsLong();
        }

        @Override
        public boolean isEmpty() {
            return map.isEmpty();
        }

        @Override
        public long getDataSize() {
            return getCount();
        }
    }

    /**
     * Index keys compared value by value: values of different classes by class name (never equal, as
     * before), strings, numbers and booleans natively, anything else as H2's ObjectDataType compares
     * it. A total order in which two keys compare equal exactly when they did by their serialization.
     * Stored as ObjectDataType stores them.
     */
    static final class KeyOrder extends BasicDataType<KeyValue> {
        private final ObjectDataType objects = new ObjectDataType();

        @Override
        public int compare(KeyValue a, KeyValue b) {
            if (a == b) {
                return 0;
            }
            int n = Math.min(a.size(), b.size());
            for (int i = 0; i < n; i++) {
                int c = compareValues(a.get(i), b.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a.size(), b.size());
        }

        private int compareValues(Object a, Object b) {
            if (a == b) {
                return 0;
            }
            if (a == null || b == null) {
                return a == null ? -1 : 1;
            }
            if (a.getClass() != b.getClass()) {
                return a.getClass().getName().compareTo(b.getClass().getName());
            }
            if (a instanceof String) {
                return ((String) a).compareTo((String) b);
            }
            if (a instanceof Integer) {
                return Integer.compare((Integer) a, (Integer) b);
            }
            if (a instanceof Long) {
                return Long.compare((Long) a, (Long) b);
            }
            if (a instanceof Double) {
                return Double.compare((Double) a, (Double) b);
            }
            if (a instanceof Boolean) {
                return Boolean.compare((Boolean) a, (Boolean) b);
            }
            return objects.compare(a, b);
        }

        @Override
        public int getMemory(KeyValue key) {
            int bytes = 48;
            for (Object value : key) {
                bytes += value instanceof String ? 40 + 2 * ((String) value).length() : 32;
            }
            return bytes;
        }

        @Override
        public void write(WriteBuffer buff, KeyValue key) {
            objects.write(buff, key);
        }

        @Override
        public KeyValue read(ByteBuffer buff) {
            return (KeyValue) objects.read(buff);
        }

        @Override
        public KeyValue[] createStorage(int size) {
            return new KeyValue[size];
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
        H2Backend backend = new KeyedBackend(store);
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
