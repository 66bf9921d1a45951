package org.edgelab.experiments.matrix;

import java.util.Map;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.ByteSizeValue;
import org.edgelab.experiments.descriptor.Descriptor.Link;
import org.edgelab.experiments.target.ServerBuild;

/**
 * One point of an experiment's matrix: a server build under one load setting. Its id names the
 * crossed dimensions only, in matrix order ({@code server=memory,object_size=100KB,connections=100}),
 * and stays the same as long as the descriptor's values do. Immutable and thread-safe.
 *
 * @param index       0-based position in run order
 * @param id          the stable id
 * @param dimensions  the crossed dimensions' values, in matrix order
 * @param server      the server build
 * @param objectSize  object size
 * @param connections connections
 * @param rangeSize   range size, 0 for full fetches
 * @param link        client link
 * @param client      the load client that sends the cell's load
 */
public record Cell(int index, String id, Map<String, String> dimensions, ServerBuild server, ByteSizeValue objectSize,
                   int connections, ByteSizeValue rangeSize, Link link, ClientChoice client) {

    /** The id made safe for a file name: {@code =} becomes {@code -}, {@code ,} becomes {@code _}. */
    public String fileName() {
        return id.replace('=', '-').replace(',', '_').replaceAll("[^A-Za-z0-9._+-]", "_");
    }
}
