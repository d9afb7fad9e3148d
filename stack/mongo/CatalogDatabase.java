import java.util.List;
import java.util.Map;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;

/**
 * An H2 database whose maps are kept in this server's own types: unique indexes ordered by value
 * (KeyOrder) and documents stored as BSON (BsonDocuments), each under a map name of its own. A map
 * kept the backend's way is copied into the new one when its collection or index opens, and then
 * removed, so a data file written by the plain backend opens here unchanged.
 */
final class CatalogDatabase extends H2Database {
    /** The backend's prefix of a collection's data map (H2Database keeps its constant to its package). */
    private static final String DATA_PREFIX = "databases.";

    /** Suffix of the index maps kept in KeyOrder. */
    private static final String KEYED = ".by-value";

    /** Suffix of the data maps kept as BSON. */
    private static final String BSON = ".$bson";

    CatalogDatabase(String databaseName, MVStore mvStore, CursorRegistry cursors) {
        super(databaseName, mvStore, cursors);
    }

    /** The store: the backend opens collections from the constructor, before a field of this class is set. */
    private static MVStore store() {
        return CatalogMongoServer.store;
    }

    private String indexMapName(String collectionName, String indexName) {
        return getFullCollectionNamespace(collectionName) + "._index_" + indexName;
    }

    private String dataMapName(String collectionName) {
        return DATA_PREFIX + getFullCollectionNamespace(collectionName);
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
        String plain = indexMapName(collectionName, indexName);
        MVMap<KeyValue, Object> map = store().openMap(plain + KEYED, new MVMap.Builder<KeyValue, Object>().keyType(new KeyOrder()));
        adopt(plain, map, "index");
        return new KeyedUniqueIndex(map, indexName, keys, sparse);
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
        String plain = dataMapName(collectionName);
        MVMap<Object, Document> data = store().openMap(plain + BSON, new MVMap.Builder<Object, Document>().valueType(new BsonDocuments()));
        adopt(plain, data, "collection");
        MVMap<String, Object> meta = store().openMap("meta." + getFullCollectionNamespace(collectionName));
        return new H2Collection(this, collectionName, options, data, meta, cursorRegistry);
    }

    /**
     * A map kept the backend's way under `plain`: copied whole into `map` (again, if a copy was cut
     * short), then removed.
     */
    private static <K, V> void adopt(String plain, MVMap<K, V> map, String what) {
        MVStore store = store();
        if (!store.hasMap(plain)) {
            return;
        }
        long started = System.nanoTime();
        long serialized = BsonDocuments.SERIALIZED_WRITES.get();
        MVMap<K, V> old = store.openMap(plain);
        map.clear();
        for (Map.Entry<K, V> entry : old.entrySet()) {
            map.put(entry.getKey(), entry.getValue());
        }
        store.removeMap(old);
        store.commit();
        System.err.printf("catalog-mongo: %s %s kept in this server's format (%d entries, %d of them Java-serialized, %.1f s)%n", what, plain,
            map.sizeAsLong(), BsonDocuments.SERIALIZED_WRITES.get() - serialized, (System.nanoTime() - started) / 1e9);
    }

    @Override
    protected void dropIndex(MongoCollection<Object> collection, String indexName) {
        super.dropIndex(collection, indexName);
        removeIfPresent(indexMapName(collection.getCollectionName(), indexName) + KEYED);
    }

    @Override
    public void dropCollection(String collectionName, Oplog oplog) {
        super.dropCollection(collectionName, oplog);
        removeIfPresent(dataMapName(collectionName) + BSON);
    }

    @Override
    public void moveCollection(MongoDatabase oldDatabase, MongoCollection<?> collection, String newCollectionName) {
        // The backend renames the maps of its own names (creating an empty data map to rename): the
        // collection's documents move with their BSON map, and the empty one goes.
        String from = DATA_PREFIX + collection.getFullName() + BSON;
        super.moveCollection(oldDatabase, collection, newCollectionName);
        String to = dataMapName(newCollectionName);
        removeIfPresent(to);
        if (store().hasMap(from)) {
            store().renameMap(store().openMap(from), to + BSON);
        }
    }

    private static void removeIfPresent(String name) {
        if (store().hasMap(name)) {
            store().removeMap(name);
        }
    }
}
