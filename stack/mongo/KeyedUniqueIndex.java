import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

import org.h2.mvstore.MVMap;

import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

/** A unique index whose keys and document positions are an MVMap's entries. */
final class KeyedUniqueIndex extends AbstractUniqueIndex<Object> {
    private final MVMap<KeyValue, Object> map;

    KeyedUniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
        this.map = map;
    }

    /**
     * A regular expression on the key (a rebuild's `_id` slices): every key is tested, as the backend
     * does, by one matcher reset for each key, where the backend makes a matcher per key (that was a
     * fifth of a rebuild's read). Every other query as the backend answers it.
     */
    @Override
    public synchronized Iterable<Object> getPositions(Document query) {
        Object queried = isCompoundIndex() ? null : query.get(keys().get(0));
        if (!BsonRegularExpression.isRegularExpression(queried)) {
            return super.getPositions(query);
        }
        BsonRegularExpression regex = BsonRegularExpression.convertToRegularExpression(queried);
        Matcher matcher = null;
        List<Object> positions = new ArrayList<>();
        for (Map.Entry<KeyValue, Object> entry : map.entrySet()) {
            KeyValue key = entry.getKey();
            if (key.size() == 1 && key.get(0) instanceof String) {
                // made at the first string key, as the backend's first matcher would be
                matcher = matcher == null ? regex.matcher((String) key.get(0)) : matcher.reset((String) key.get(0));
                if (matcher.find()) {
                    positions.add(entry.getValue());
                }
            }
        }
        return positions;
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
