import java.nio.ByteBuffer;

import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.backend.KeyValue;

/**
 * Index keys compared value by value: values of different classes by class name (never equal, as
 * before), strings, numbers and booleans natively, anything else as H2's ObjectDataType compares
 * it. A total order in which two keys compare equal exactly when they did by their serialization.
 * Stored as ObjectDataType stores them.
 */
final class KeyOrder extends BasicDataType<KeyValue> {
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
