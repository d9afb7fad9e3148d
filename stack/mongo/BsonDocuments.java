import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.bson.BinData;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A collection's documents stored as BSON, the bytes they arrive in. The backend's own maps store
 * each document by Java serialization, and reading it back was 40 % of the server's processor time
 * when a rebuild reads every home; BSON decodes several times faster and takes a quarter less room.
 *
 * A document is stored as BSON only when it decodes back equal to itself (same keys in the same
 * order, same value classes): an Instant finer than a millisecond, a Set or any value BSON cannot
 * carry would not, and such a document is stored by Java serialization as before. The first byte
 * says which.
 */
final class BsonDocuments extends BasicDataType<Document> {
    private static final byte BSON = 0;
    private static final byte SERIALIZED = 1;

    /** Document writes by Java serialization since the server started (a page written again writes its documents again). */
    static final AtomicLong SERIALIZED_WRITES = new AtomicLong();

    private final ObjectDataType objects = new ObjectDataType();

    @Override
    public void write(WriteBuffer buff, Document document) {
        byte[] bson = bsonOf(document);
        if (bson != null) {
            buff.put(BSON).put(bson);
        } else {
            SERIALIZED_WRITES.incrementAndGet();
            buff.put(SERIALIZED);
            objects.write(buff, document);
        }
    }

    /** The document's BSON, or null when it would not decode back equal. */
    private static byte[] bsonOf(Document document) {
        ByteBuf out = Unpooled.buffer(256);
        try {
            BsonEncoder.encodeDocument(document, out);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return document.equals(BsonDecoder.decodeBson(Unpooled.wrappedBuffer(bytes))) ? bytes : null;
        } catch (RuntimeException e) {
            return null;
        } finally {
            out.release();
        }
    }

    @Override
    public Document read(ByteBuffer buff) {
        if (buff.get() == SERIALIZED) {
            return (Document) objects.read(buff);
        }
        int start = buff.position();
        // BSON starts with the document's length, little-endian, itself included
        int length = Integer.reverseBytes(buff.getInt(start));
        Document document = BsonDecoder.decodeBson(Unpooled.wrappedBuffer(buff.slice(start, length)));
        buff.position(start + length);
        return document;
    }

    /** Equal documents compare 0; others in ObjectDataType's order (only replace-if-equal asks a value type). */
    @Override
    public int compare(Document a, Document b) {
        return a.equals(b) ? 0 : objects.compare(a, b);
    }

    /** Heap held by the decoded document, for the page cache: estimated from its shape, as it is decoded. */
    @Override
    public int getMemory(Document document) {
        return 24 + sizeOf(document);
    }

    private static int sizeOf(Object value) {
        if (value instanceof String) {
            // compact strings: a byte a character (Latin-1), as nearly all of these are
            return 48 + ((String) value).length();
        }
        if (value instanceof BinData) {
            return 40 + ((BinData) value).getData().length;
        }
        if (value instanceof byte[]) {
            return 16 + ((byte[]) value).length;
        }
        if (value instanceof Map) {
            int bytes = 80;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                bytes += 40 + sizeOf(entry.getKey()) + sizeOf(entry.getValue());
            }
            return bytes;
        }
        if (value instanceof Collection) {
            int bytes = 40;
            for (Object item : (Collection<?>) value) {
                bytes += 8 + sizeOf(item);
            }
            return bytes;
        }
        return 24;
    }

    @Override
    public Document[] createStorage(int size) {
        return new Document[size];
    }
}
