/** picocli commands {@code run} and {@code list}, registered by the top-level {@code edgelab} command. */
package org.edgelab.experiments.cli;
