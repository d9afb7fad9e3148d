import java.util.ArrayList;
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
import de.bwaldvogel.mongo.exception.MongoServerException;
import de.bwaldvogel.mongo.oplog.Oplog;

/**
 * An H2 database whose maps are kept in this server's own types: unique indexes ordered by value
 * (KeyOrder) and documents stored as BSON (BsonDocuments), each under a map name of its own. Maps kept
 * by an earlier launcher (the backend's own names, or indexes under ".by-value" with documents under
 * the backend's names) are copied into this launcher's maps when their collection or index opens, and
 * then removed, so a data file written by either opens here unchanged.
 *
 * An earlier launcher sees none of this launcher's maps: a database it opens looks empty to it, and what
 * it creates there is kept in its own maps. When this launcher opens the database again, the database is
 * the earlier launcher's if that one created any collection in it (this launcher's maps of the database
 * are dropped, then the other's are copied), and stays this launcher's otherwise.
 */
final class CatalogDatabase extends H2Database {
    /** The backend's prefix of a collection's data map (H2Database keeps its constant to its package). */
    private static final String DATA_PREFIX = "databases.";

    /** Suffix of the index maps kept in KeyOrder by this launcher. */
    private static final String KEYS = ".keys";

    /** Suffix of the index maps kept in KeyOrder by the launcher before this one (its documents under the backend's names). */
    private static final String EARLIER_KEYS = ".by-value";

    /** The backend's collection of a database's collections, opened before any other. */
    private static final String NAMESPACES = "system.namespaces";

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
        MVMap<KeyValue, Object> map = store().openMap(plain + KEYS, new MVMap.Builder<KeyValue, Object>().keyType(new KeyOrder()));
        adopt(map, "index", plain, plain + EARLIER_KEYS);
        return new KeyedUniqueIndex(map, indexName, keys, sparse);
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
        String plain = dataMapName(collectionName);
        if (collectionName.equals(NAMESPACES)) {
            settleLaunchers(plain);
        }
        MVMap<Object, Document> data = store().openMap(plain + BSON, new MVMap.Builder<Object, Document>().valueType(new BsonDocuments()));
        adopt(data, "collection", plain);
        MVMap<String, Object> meta = store().openMap("meta." + getFullCollectionNamespace(collectionName));
        return new H2Collection(this, collectionName, options, data, meta, cursorRegistry);
    }

    /**
     * Whose maps hold this database, decided as its collection of collections opens (before any other):
     * an earlier launcher's collection of collections (`plain`) beside this launcher's means the earlier
     * one opened the database since. Empty, it created nothing there: it goes, and this launcher's maps
     * stand. Otherwise this launcher's maps of the database go, and the earlier launcher's are copied as
     * each opens.
     */
    private void settleLaunchers(String plain) {
        MVStore store = store();
        if (!store.hasMap(plain) || !store.hasMap(plain + BSON)) {
            return;
        }
        MVMap<Object, Object> earlier = store.openMap(plain);
        if (earlier.isEmpty()) {
            store.removeMap(earlier);
            return;
        }
        String db = getDatabaseName();
        List<String> ours = new ArrayList<>();
        for (String name : store.getMapNames()) {
            if ((name.startsWith(DATA_PREFIX + db + ".") && name.endsWith(BSON)) || (name.startsWith(db + ".") && name.endsWith(KEYS))) {
                ours.add(name);
            }
        }
        ours.forEach(store::removeMap);
        store.commit();
        System.err.printf("catalog-mongo: database %s was written by an earlier launcher since: its maps replace this launcher's %d%n", db, ours.size());
    }

    /**
     * The first of `earlier` (map names of earlier launchers) that exists, copied whole into `map`
     * (again, if a copy was cut short); then every one of them is removed.
     */
    private static <K, V> void adopt(MVMap<K, V> map, String what, String... earlier) {
        MVStore store = store();
        String source = null;
        for (String name : earlier) {
            if (store.hasMap(name)) {
                source = name;
                break;
            }
        }
        if (source == null) {
            return;
        }
        long started = System.nanoTime();
        long serialized = BsonDocuments.SERIALIZED_WRITES.get();
        MVMap<K, V> old = store.openMap(source);
        map.clear();
        for (Map.Entry<K, V> entry : old.entrySet()) {
            map.put(entry.getKey(), entry.getValue());
        }
        for (String name : earlier) {
            if (store.hasMap(name)) {
                store.removeMap(name);
            }
        }
        store.commit();
        System.err.printf("catalog-mongo: %s %s kept in this server's format (%d entries; document writes by Java serialization: %d; %.1f s)%n", what,
            source, map.sizeAsLong(), BsonDocuments.SERIALIZED_WRITES.get() - serialized, (System.nanoTime() - started) / 1e9);
    }

    @Override
    protected void dropIndex(MongoCollection<Object> collection, String indexName) {
        super.dropIndex(collection, indexName);
        removeIfPresent(indexMapName(collection.getCollectionName(), indexName) + KEYS);
    }

    @Override
    public void dropCollection(String collectionName, Oplog oplog) {
        super.dropCollection(collectionName, oplog);
        removeIfPresent(dataMapName(collectionName) + BSON);
    }

    /**
     * Refused: the backend renames a collection's documents but neither its index maps nor, in this
     * version, its counters, so a renamed collection would reopen with empty indexes. Nothing here
     * renames a collection (renameCollection, $out). The backend asks this after dropping a target that
     * renameCollection's dropTarget (or $out) names, which is gone then all the same.
     */
    @Override
    public void moveCollection(MongoDatabase oldDatabase, MongoCollection<?> collection, String newCollectionName) {
        throw new MongoServerException("renaming a collection is not supported by the local Mongo-wire server (stack/mongo)");
    }

    private static void removeIfPresent(String name) {
        if (store().hasMap(name)) {
            store().removeMap(name);
        }
    }
}
