/**
 * The experiment runner ({@link org.edgelab.experiments.runner.ExperimentRunner}) on the embedded
 * target, and the result folder it writes: manifest.json, descriptor.yaml, results.csv, hlog/.
 */
package org.edgelab.experiments.runner;
