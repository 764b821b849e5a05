step mokutil --password --hash-file /data/mokpw.hash
