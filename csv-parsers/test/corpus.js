'use strict';
// Small CSV texts with the rows they mean, written out by hand (never computed by one of the parsers), and
// malformed texts with the row each error must name. Every approach is run over these at every chunk split.

const CASES = [
  { name: 'empty input', text: '', rows: [] },
  { name: 'one field, no line end', text: 'a', rows: [['a']] },
  { name: 'one field, line end', text: 'a\n', rows: [['a']] },
  { name: 'records', text: 'a,b,c\n1,2,3\n', rows: [['a', 'b', 'c'], ['1', '2', '3']] },
  { name: 'no trailing line end', text: 'a,b\nc,d', rows: [['a', 'b'], ['c', 'd']] },
  { name: 'empty fields', text: ',,\n,a,\n', rows: [['', '', ''], ['', 'a', '']] },
  { name: 'trailing comma at the end of input', text: 'a,', rows: [['a', '']] },
  { name: 'empty line between records', text: 'a\n\nb\n', rows: [['a'], [''], ['b']] },
  { name: 'a lone line end', text: '\n', rows: [['']] },
  { name: 'a lone \\r\\n', text: '\r\n', rows: [['']] },
  { name: '\\r\\n record ends', text: 'a,b\r\nc,d\r\n', rows: [['a', 'b'], ['c', 'd']] },
  { name: 'mixed record ends', text: 'a\r\nb\nc', rows: [['a'], ['b'], ['c']] },
  { name: 'quoted fields', text: '"a","b"\n', rows: [['a', 'b']] },
  { name: 'quoted comma', text: '"a,b",c\n', rows: [['a,b', 'c']] },
  { name: 'doubled quotes', text: '"say ""hi""",x\n', rows: [['say "hi"', 'x']] },
  { name: 'a field that is one quote', text: '""""\n', rows: [['"']] },
  { name: 'empty quoted fields', text: '"",""\n', rows: [['', '']] },
  { name: 'quoted \\n', text: '"line1\nline2",b\nc,d\n', rows: [['line1\nline2', 'b'], ['c', 'd']] },
  { name: 'quoted \\r\\n in \\r\\n records', text: '"x\r\ny"\r\nz\r\n', rows: [['x\r\ny'], ['z']] },
  { name: 'quoted lone \\r', text: '"a\rb"\n', rows: [['a\rb']] },
  { name: 'quoted field at the end of input', text: 'a,"b"', rows: [['a', 'b']] },
  { name: 'empty quoted field at the end of input', text: 'a,""', rows: [['a', '']] },
  { name: 'doubled quote before the closing one', text: '"a""",b', rows: [['a"', 'b']] },
  { name: 'quotes, commas and a line end together', text: '"a""\n,""",x\n', rows: [['a"\n,"', 'x']] },
  { name: 'spaces are data', text: ' a , b \n', rows: [[' a ', ' b ']] },
  { name: 'records of different lengths', text: 'h1,h2\n1\n1,2,3\n', rows: [['h1', 'h2'], ['1'], ['1', '2', '3']] },
  { name: 'non-ASCII', text: 'é,ß,中文\n"😀,🚀",👍🏽\n', rows: [['é', 'ß', '中文'], ['😀,🚀', '👍🏽']] },
  { name: 'quoted and unquoted lines alternating', text: 'a,b\n"c\n",d\ne,"f"\r\ng,h\n', rows: [['a', 'b'], ['c\n', 'd'], ['e', 'f'], ['g', 'h']] },
];

// `message` is a pattern of the problem our parsers name; `row` the 1-based record it names.
const MALFORMED = [
  { name: 'a quoted field not closed at the end', text: 'a,b\n"abc', row: 2, message: /quoted field is not closed/ },
  { name: 'a quoted field not closed, with a line end', text: '"abc\n', row: 1, message: /quoted field is not closed/ },
  { name: 'a quote inside an unquoted field', text: 'ab"c\n', row: 1, message: /quote inside an unquoted field/ },
  { name: 'a quote inside an unquoted field, third row', text: 'a\n"b\nb"\nc"d\n', row: 3, message: /quote inside an unquoted field/ },
  { name: 'characters after a closing quote', text: '"a"b,c\n', row: 1, message: /after the closing quote/ },
  { name: 'a space after a closing quote', text: 'x\n"a" ,c\n', row: 2, message: /after the closing quote/ },
  { name: 'a lone \\r outside quotes', text: 'a\rb\n', row: 1, message: /carriage return/ },
  { name: 'a \\r at the end of input', text: 'a\r', row: 1, message: /carriage return/ },
];

module.exports = { CASES, MALFORMED };
