package org.edgelab.units;

import java.math.BigDecimal;
import java.math.MathContext;

/** Numbers as EdgeLab writes them in tables, CSV and notes: rounded to significant digits, plain notation, no trailing zeros. Stateless and thread-safe. */
public final class SignificantFigures {

    private SignificantFigures() {
    }

    /** {@code value} rounded to {@code digits} significant digits, in plain notation without trailing zeros (2, 0.5, 5.6); {@code value} must be finite. */
    public static String format(double value, int digits) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("only a finite number has significant digits, got " + value);
        }
        return new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
    }
}
