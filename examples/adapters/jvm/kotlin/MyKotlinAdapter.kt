// A conform adapter in Kotlin 2 over the JVM kit: the kit reads and writes the JSON (JavaScript-exact)
// and speaks the protocol; this file turns its values into typed Kotlin and back, and decodes.
//
//   conform run fixtures --impl-cmd 'java -jar build/conform-adapter-kotlin.jar'
//   conform check-adapter --impl-cmd 'java -jar build/conform-adapter-kotlin.jar'
//
// As shipped, `decode` reads the tool-policy suite's input into a data class itself and asks conform's own
// reference (`conform adapter`, in a child process) for every output, so it passes out of the box.
// Replace the call to `reference.decode` with a call into your decoder.
package conform.example.kotlin

import conform.adapter.Adapter
import conform.adapter.JsonReader
import conform.adapter.JsonWriter
import conform.adapter.Skip
import java.io.File

/** A JSON value, typed: what the kit's reader gives, as a Kotlin team would rather hold it. */
sealed interface Json {
    /** An object; its members keep the order they were read in. */
    data class Object(val members: Map<String, Json>) : Json {
        operator fun get(key: String): Json? = members[key]
    }

    data class Array(val items: List<Json>) : Json

    /** A string as JavaScript holds it (UTF-16): a lone surrogate from `"\udc00"` stays one. */
    data class Text(val value: String) : Json

    /** A number as `JSON.parse` reads it: a double. */
    data class Number(val value: Double) : Json

    data class Bool(val value: Boolean) : Json

    data object Null : Json

    companion object {
        /** Types a value of the kit's reader (maps, lists, strings, doubles, booleans, null). */
        fun of(value: Any?): Json = when (value) {
            null -> Null
            is String -> Text(value)
            is Boolean -> Bool(value)
            is kotlin.Number -> Number(value.toDouble())
            is Map<*, *> -> Object(value.entries.associate { (key, member) -> key as String to of(member) })
            is List<*> -> Array(value.map(::of))
            else -> throw IllegalArgumentException("not a JSON value: ${value::class.qualifiedName}")
        }
    }
}

/** The value the kit's writer takes. */
fun Json.toKit(): Any? = when (this) {
    is Json.Object -> members.mapValues { (_, member) -> member.toKit() }
    is Json.Array -> items.map { it.toKit() }
    is Json.Text -> value
    is Json.Number -> value
    is Json.Bool -> value
    Json.Null -> null
}

val Json.text: String? get() = (this as? Json.Text)?.value

/** The tool-policy suite's input part, `{tool, command?, mode}` (src/suites/tool_policy/README.md). */
data class ToolCall(val tool: String, val command: String?, val mode: Mode) {
    enum class Mode { PLANNER, IMPLEMENTATION }

    companion object {
        fun from(input: Json): ToolCall {
            val call = input as? Json.Object ?: throw IllegalArgumentException("the tool-policy input is not an object")
            val tool = call["tool"]?.text ?: throw IllegalArgumentException("the tool-policy input has no tool name")
            val mode = call["mode"]?.text ?: throw IllegalArgumentException("the tool-policy input has no mode")
            // Exactly "implementation" selects implementation mode; any other string is planner mode.
            return ToolCall(tool, call["command"]?.text, if (mode == "implementation") Mode.IMPLEMENTATION else Mode.PLANNER)
        }
    }
}

/** How the reference answered one case. */
sealed interface Answer {
    data class Output(val value: Json) : Answer
    data class Failed(val message: String) : Answer
    data class Declined(val reason: String) : Answer
}

/** Conform's reference over protocol v1: `conform adapter` in a child process ($CONFORM_BIN, else `conform` on PATH). */
class Reference {
    private val child: Process = ProcessBuilder(conformBinary(), "adapter")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        // In one-shot mode this process sees CONFORM_SUITE & co.; `conform adapter` must not.
        .apply { environment().keys.removeIf { it.startsWith("CONFORM_") } }
        .start()
    private val toChild = child.outputStream
    private val fromChild = child.inputStream.bufferedReader(Charsets.UTF_8)
    private var lastId = 0L

    /** The suites the reference implements, with their fixtureVersions. */
    val suites: Map<String, List<Int>>

    init {
        val hello = exchange(mapOf("op" to "hello", "protocol" to 1, "harness" to mapOf("name" to "MyKotlinAdapter.kt", "version" to "1")))
        val declared = hello["suites"] as? Json.Object ?: error("the reference's hello has no suites")
        suites = declared.members.mapValues { (_, versions) ->
            (versions as Json.Array).items.map { (it as Json.Number).value.toInt() }
        }
    }

    fun decode(suite: String, input: Json, fixtureVersion: Int): Answer {
        val reply = exchange(
            mapOf("op" to "run", "id" to ++lastId, "suite" to suite, "fixture" to "", "fixtureVersion" to fixtureVersion, "input" to input.toKit()),
        )
        return reply["output"]?.let(Answer::Output)
            ?: reply["error"]?.text?.let(Answer::Failed)
            ?: reply["skipped"]?.text?.let(Answer::Declined)
            ?: error("the reference's reply has no output: $reply")
    }

    private fun exchange(message: Map<String, Any?>): Json.Object {
        toChild.write((JsonWriter.compact(message) + "\n").toByteArray(Charsets.UTF_8))
        toChild.flush()
        val line = fromChild.readLine() ?: error("conform adapter exited")
        return Json.of(JsonReader.parse(line)) as? Json.Object ?: error("not a JSON object: $line")
    }

    private companion object {
        fun conformBinary(): String =
            System.getenv("CONFORM_BIN")?.takeIf { it.isNotEmpty() }
                ?: System.getenv("PATH").orEmpty().split(File.pathSeparator)
                    .map { File(it.ifEmpty { "." }, "conform") }
                    .firstOrNull { it.isFile && it.canExecute() }?.path
                ?: error("conform binary not found: set CONFORM_BIN or put conform on PATH")
    }
}

/** Maps a case's input part to its output part; throws [Skip] to decline a case, anything else for an `error`. */
fun decode(reference: Reference, suite: String, input: Json, fixtureVersion: Int): Json {
    if (suite !in reference.suites) throw Skip("suite $suite is not wired in yet")
    if (suite == "tool-policy") {
        // Read here, so a malformed input is this decoder's own error; a real decoder goes on with the call.
        ToolCall.from(input)
    }
    // Replace this `when` with a call into your decoder, e.g. HapiDecoder.conformOutput(suite, input).
    return when (val answer = reference.decode(suite, input, fixtureVersion)) {
        is Answer.Output -> answer.value
        is Answer.Failed -> throw IllegalStateException(answer.message)
        is Answer.Declined -> throw Skip(answer.reason)
    }
}

fun main() {
    val reference = Reference()
    Adapter.serve("example-kotlin", "1.0.0", "kotlin", reference.suites) { suite, input, fixtureVersion ->
        decode(reference, suite, Json.of(input), fixtureVersion).toKit()
    }
}
