package org.edgelab.experiments.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.ByteSizeValue;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.Descriptor.Link;
import org.edgelab.experiments.target.ServerBuild;

/**
 * Expands a descriptor's matrix into cells: the cross product of the matrix dimensions, the first
 * dimension outermost, values in descriptor order; dimensions outside the matrix hold their one value.
 * Stateless and thread-safe.
 */
public final class MatrixExpander {

    private MatrixExpander() {
    }

    /** Returns every cell of {@code descriptor}, in run order. */
    public static List<Cell> expand(Descriptor descriptor) {
        Descriptor.LoadProfile load = descriptor.load();
        Map<String, List<?>> values = new LinkedHashMap<>();
        values.put("server", descriptor.servers());
        values.put("object_size", load.objectSizes());
        values.put("connections", load.connections());
        values.put("range_size", load.rangeSizes());
        values.put("link", load.links());
        values.put("client", load.clients());
        List<String> matrix = descriptor.matrix();
        List<Cell> cells = new ArrayList<>();
        int[] position = new int[matrix.size()];
        while (true) {
            Map<String, Object> chosen = new LinkedHashMap<>();
            values.forEach((dim, list) -> chosen.put(dim, list.get(0)));
            Map<String, String> dims = new LinkedHashMap<>();
            for (int d = 0; d < matrix.size(); d++) {
                Object value = values.get(matrix.get(d)).get(position[d]);
                chosen.put(matrix.get(d), value);
                dims.put(matrix.get(d), label(value));
            }
            StringBuilder id = new StringBuilder();
            dims.forEach((k, v) -> id.append(id.length() == 0 ? "" : ",").append(k).append('=').append(v));
            cells.add(new Cell(cells.size(), id.toString(), dims, (ServerBuild) chosen.get("server"),
                    (ByteSizeValue) chosen.get("object_size"), (Integer) chosen.get("connections"),
                    (ByteSizeValue) chosen.get("range_size"), (Link) chosen.get("link"), (ClientChoice) chosen.get("client")));
            int d = matrix.size() - 1;
            while (d >= 0 && ++position[d] == values.get(matrix.get(d)).size()) {
                position[d] = 0;
                d--;
            }
            if (d < 0) {
                return cells;
            }
        }
    }

    private static String label(Object value) {
        if (value instanceof ServerBuild s) {
            return s.name();
        }
        if (value instanceof ByteSizeValue b) {
            return b.text().replace(" ", "");
        }
        if (value instanceof Link l) {
            return l.name();
        }
        if (value instanceof ClientChoice c) {
            return c.name();
        }
        return String.valueOf(value);
    }
}
