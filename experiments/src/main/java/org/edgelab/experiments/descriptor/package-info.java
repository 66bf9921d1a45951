/**
 * Experiment descriptors: YAML files (and built-in class path resources) bound strictly with Jackson,
 * merged through {@code includes} and {@code quick} overlays, defaulted and checked into a
 * {@link org.edgelab.experiments.descriptor.Descriptor}; every error names file, line and field.
 */
package org.edgelab.experiments.descriptor;
