// file: URIs as editors send them, to paths as the server's platform has them, and back — Windows rules tested here
// on any machine (workspace/file-uri.ts takes the platform as a parameter).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isInside, pathKey, pathToUri, uriToPath } from '../server/src/workspace/file-uri.js';

describe('file: URIs on Windows', () => {
  const cases: [string, string][] = [
    // VS Code: lower-case drive, escaped colon, escaped spaces
    ['file:///c%3A/Users/Jane%20Doe/proj/analysis.py', 'C:\\Users\\Jane Doe\\proj\\analysis.py'],
    // other clients: upper-case drive, colon as is
    ['file:///C:/Users/Jane%20Doe/proj/analysis.py', 'C:\\Users\\Jane Doe\\proj\\analysis.py'],
    // backslashes in the URI, escaped or not
    ['file:///C:\\Users\\Jane Doe\\proj\\analysis.py', 'C:\\Users\\Jane Doe\\proj\\analysis.py'],
    ['file:///c%3A%5CUsers%5Cjane%5Cproj%5Canalysis.py', 'C:\\Users\\jane\\proj\\analysis.py'],
    // non-ASCII, percent-encoded UTF-8 and raw
    ['file:///d%3A/Projekte/M%C3%BCller%20%E6%95%B0%E6%8D%AE/requirements.txt', 'D:\\Projekte\\Müller 数据\\requirements.txt'],
    ['file:///d:/Projekte/Müller/requirements.txt', 'D:\\Projekte\\Müller\\requirements.txt'],
    // UNC shares
    ['file://fileserver/share/team/proj/a.py', '\\\\fileserver\\share\\team\\proj\\a.py'],
    // localhost is this machine; a drive root; dot segments
    ['file://localhost/c%3A/x/a.py', 'C:\\x\\a.py'],
    ['file:///e%3A/', 'E:\\'],
    ['file:///c%3A/proj/sub/../a.py', 'C:\\proj\\a.py'],
    // a malformed escape stays as written
    ['file:///c%3A/100%25%20sure/50%zz.py', 'C:\\100% sure\\50%zz.py'],
  ];
  for (const [uri, path] of cases) {
    test(uri, () => assert.equal(uriToPath(uri, 'win32'), path));
  }

  test('not a local file: another scheme, a path without a drive', () => {
    assert.equal(uriToPath('untitled:Untitled-1', 'win32'), undefined);
    assert.equal(uriToPath('vscode-notebook-cell:/c%3A/x.ipynb#W0sZmlsZQ%3D%3D', 'win32'), undefined);
    assert.equal(uriToPath('file:///no-drive/a.py', 'win32'), undefined);
  });

  test('paths become URIs as VS Code spells them, and back', () => {
    assert.equal(pathToUri('C:\\Users\\Jane Doe\\proj\\analysis.py', 'win32'), 'file:///c%3A/Users/Jane%20Doe/proj/analysis.py');
    assert.equal(pathToUri('D:\\Projekte\\Müller 数据\\requirements.txt', 'win32'), 'file:///d%3A/Projekte/M%C3%BCller%20%E6%95%B0%E6%8D%AE/requirements.txt');
    assert.equal(pathToUri('\\\\fileserver\\share\\a b.py', 'win32'), 'file://fileserver/share/a%20b.py');
    for (const [, path] of cases) assert.equal(uriToPath(pathToUri(path, 'win32'), 'win32'), path);
  });

  test('one file under any spelling is the same path: drive letters and case do not matter', () => {
    const spellings = ['file:///c%3A/Users/Jane/proj/requirements.txt', 'file:///C:/users/jane/PROJ/requirements.txt', 'file:///C:\\Users\\Jane\\proj\\requirements.txt'];
    const keys = new Set(spellings.map((u) => pathKey(uriToPath(u, 'win32')!, 'win32')));
    assert.equal(keys.size, 1);
    assert.ok(isInside('C:\\Users\\Jane\\proj', 'c:\\users\\jane\\proj\\pkg\\a.py', 'win32'));
    assert.ok(isInside('C:\\Users\\Jane\\proj', 'C:\\Users\\Jane\\proj', 'win32'));
    assert.ok(!isInside('C:\\Users\\Jane\\proj', 'C:\\Users\\Jane\\project2\\a.py', 'win32'));
    assert.ok(!isInside('C:\\Users\\Jane\\proj', 'D:\\Users\\Jane\\proj\\a.py', 'win32'));
  });
});

describe('file: URIs on Linux and macOS', () => {
  test('spaces, non-ASCII and backslashes (an ordinary character there) round-trip', () => {
    for (const path of ['/home/jane/my project/analysis.py', '/Users/jörg/数据/a.py', '/tmp/odd\\name/#1?.py']) {
      const uri = pathToUri(path, 'posix');
      assert.match(uri, /^file:\/\/\//);
      assert.equal(uriToPath(uri, 'posix'), path);
    }
    assert.equal(uriToPath('file:///home/jane/my%20project/a.py', 'posix'), '/home/jane/my project/a.py');
    assert.equal(uriToPath('file://localhost/home/a.py', 'posix'), '/home/a.py');
    assert.equal(uriToPath('file://server/share/a.py', 'posix'), undefined, 'a remote host is not a local path');
    assert.ok(!isInside('/home/jane/proj', '/home/jane/project2/a.py', 'posix'));
    assert.notEqual(pathKey('/Home/a.py', 'posix'), pathKey('/home/a.py', 'posix'), 'case matters on Linux');
  });
});
