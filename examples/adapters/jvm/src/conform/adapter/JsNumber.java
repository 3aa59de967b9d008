package conform.adapter;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers written as JavaScript writes them (ECMAScript Number::toString).
 *
 * <p>Java's own {@code Double.toString} differs: it writes {@code 1.0E21} and {@code 1.0E-7}, and
 * before Java 19 it sometimes writes more digits than needed ({@code 2.0000000000000002E23} for
 * {@code 2e23}). JavaScript writes the fewest significant digits that read back as the same double
 * (the closest such digits when several qualify), then lays them out as {@code 100}, {@code 1e+21},
 * {@code 0.000001} or {@code 1e-7} depending on the decimal exponent.
 */
public final class JsNumber {
    /** Largest double below which every integer is exact (2^53). */
    private static final double EXACT_INTEGERS = 9007199254740992.0;

    private JsNumber() {}

    /**
     * ECMAScript Number::toString of {@code value}: {@code NaN}, {@code Infinity} and {@code -Infinity}
     * for the non-finite values, {@code 0} for both zeros.
     */
    public static String toString(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return "0"; // -0 too: JavaScript prints it as "0"
        }
        if (value < 0) {
            return "-" + toString(-value);
        }
        if (value < EXACT_INTEGERS && value == Math.rint(value)) {
            // The common case (ids, timestamps, counts): an exact integer below 2^53 is its own
            // shortest form, and below 1e21 JavaScript writes it without an exponent.
            return Long.toString((long) value);
        }
        BigDecimal digits = shortestDigits(value).stripTrailingZeros();
        String s = digits.unscaledValue().toString();
        int k = s.length();
        int n = k - digits.scale(); // value = 0.s × 10^n, in the spec's terms s × 10^(n−k)
        return layout(s, k, n);
    }

    /** The shortest decimal that reads back as {@code value} (finite, positive), closest on ties. */
    private static BigDecimal shortestDigits(double value) {
        BigDecimal exact = new BigDecimal(value);
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal closest = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (readsBackAs(closest, value)) {
                return closest;
            }
            // At a power of two the gap below a double is half the gap above it, so the closest
            // decimal of this length can fall outside the rounding interval while its neighbour on
            // the far side of the value is inside it.
            BigDecimal step = closest.ulp();
            BigDecimal above = closest.add(step);
            BigDecimal below = closest.subtract(step);
            boolean aboveReads = readsBackAs(above, value);
            boolean belowReads = readsBackAs(below, value);
            if (aboveReads && belowReads) {
                return above.subtract(exact).abs().compareTo(exact.subtract(below).abs()) <= 0 ? above : below;
            }
            if (aboveReads) {
                return above;
            }
            if (belowReads) {
                return below;
            }
        }
        // 17 significant digits always identify a double; this is not reached.
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
    }

    private static boolean readsBackAs(BigDecimal decimal, double value) {
        // Double.parseDouble rounds correctly (to nearest, ties to even), as JSON.parse does.
        return decimal.signum() > 0 && Double.parseDouble(decimal.toString()) == value;
    }

    /** Number::toString steps 6 to 10: digits {@code s} (k of them), decimal exponent {@code n}. */
    private static String layout(String s, int k, int n) {
        StringBuilder out = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            out.append(s);
            for (int i = k; i < n; i++) {
                out.append('0');
            }
        } else if (0 < n && n <= 21) {
            out.append(s, 0, n).append('.').append(s, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.");
            for (int i = n; i < 0; i++) {
                out.append('0');
            }
            out.append(s);
        } else {
            out.append(s.charAt(0));
            if (k > 1) {
                out.append('.').append(s, 1, k);
            }
            int exponent = n - 1;
            out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
        return out.toString();
    }
}
