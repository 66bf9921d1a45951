package org.edgelab.kubernetes.manifest;

import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** {@link StrictModel} for tests of other packages. */
public final class StrictModelAccess {
    private StrictModelAccess() {
    }

    /** See {@link StrictModel#read}. */
    public static List<HasMetadata> read(String yaml) {
        return StrictModel.read(yaml);
    }
}
