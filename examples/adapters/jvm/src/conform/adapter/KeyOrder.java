package conform.adapter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How {@link JsonWriter} orders the members of an object.
 *
 * <p>JavaScript enumerates an object's keys in a fixed order: keys that look like array indices
 * ({@code "0"} … {@code "4294967294"}) first, by numeric value, then the other keys in the order
 * they were added. {@link #JAVASCRIPT} reproduces that, so {@code JSON.stringify(JSON.parse(text))}
 * and this kit write the same bytes; {@link #CANONICAL} is the fixture files' order.
 */
public enum KeyOrder {
    /** The map's own iteration order (for a map from {@link JsonReader}: the order as read). */
    AS_GIVEN,
    /** Index-like keys first by numeric value, then the rest in the map's order (JavaScript's). */
    JAVASCRIPT,
    /** Index-like keys first by numeric value, then the rest by UTF-16 code units (fixture files). */
    CANONICAL;

    /** The largest value JavaScript treats as an array index (2^32 − 2). */
    private static final long MAX_ARRAY_INDEX = 4_294_967_294L;

    /** Orders index-like keys before the others and among themselves; the others compare equal. */
    private static final Comparator<String> INDICES_FIRST = (a, b) -> {
        long x = arrayIndex(a);
        long y = arrayIndex(b);
        if (x >= 0 && y >= 0) {
            return Long.compare(x, y);
        }
        return x >= 0 ? -1 : y >= 0 ? 1 : 0;
    };

    /**
     * The keys in this order. A stable sort keeps the map's order among equal keys; Java's
     * {@code String.compareTo} compares UTF-16 code units, as JavaScript's default sort does.
     */
    List<String> arrange(List<String> keys) {
        if (this == AS_GIVEN) {
            return keys;
        }
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(this == CANONICAL ? INDICES_FIRST.thenComparing(Comparator.naturalOrder()) : INDICES_FIRST);
        return sorted;
    }

    /**
     * The numeric value of {@code key} when JavaScript treats it as an array index (a decimal
     * integer with no sign and no leading zero, at most 4294967294), else −1.
     */
    public static long arrayIndex(String key) {
        int length = key.length();
        if (length == 0 || length > 10 || (length > 1 && key.charAt(0) == '0')) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= MAX_ARRAY_INDEX ? value : -1;
    }
}
